import DBusKit
import NavigationCore

/// One navigation window of the daemon (`org.navsession.Window1` at `/org/navsession/Session1/window/<n>`).
///
/// Every command method returns the window's new version. Commands run from the window's active model;
/// the `…At` variants from a given model. Batches and single commands are the core's own Swift types
/// (``NavigationCore/BatchCommand``, ``NavigationCore/NavigationCommand``), encoded to the JSON the
/// daemon takes.
///
/// ```swift
/// let window = try await client.session.openWindow(scene: "main")
/// try await window.switchModel("main")
/// let version = try await window.stackAppend("detail", params: ["id": "42"])
/// let result = try await window.apply([BatchCommand(.dismiss), BatchCommand(.tabsSelectItem("settings"))],
///                                     expectedVersion: version)
/// let snapshot = try await window.getState()
/// ```
public struct WindowProxy: Sendable, Hashable, CustomStringConvertible {
    /// The client the calls go through.
    public let client: NavSessionClient
    let objectPath: ObjectPath

    init(client: NavSessionClient, objectPath: ObjectPath) {
        self.client = client
        self.objectPath = objectPath
    }

    /// The window's object path (`/org/navsession/Session1/window/3`).
    public var path: String { objectPath.rawValue }

    /// The window's number (`3` for `…/window/3`), or `nil` for a path outside the session's windows.
    public var number: UInt64? {
        path.hasPrefix(ObjectPaths.windowPrefix) ? UInt64(path.dropFirst(ObjectPaths.windowPrefix.count)) : nil
    }

    /// The object path.
    public var description: String { path }

    /// Windows are equal when they have the same path (and the same daemon name).
    public static func == (lhs: WindowProxy, rhs: WindowProxy) -> Bool {
        lhs.objectPath == rhs.objectPath && lhs.client.destination == rhs.client.destination
    }

    /// Hashes the path and the daemon name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(objectPath)
        hasher.combine(client.destination)
    }

    func call(_ member: String, _ arguments: [Value] = []) async throws(NavSessionError) -> [Value] {
        try await client.call(objectPath, ObjectPaths.windowInterface, member, arguments)
    }

    /// Calls a member whose reply is the window's new version: the hand-written methods and the generated ones
    /// (`WindowProxy+Methods.generated.swift`).
    func versionCall(_ member: String, _ arguments: [Value] = []) async throws(NavSessionError) -> UInt64 {
        try Reply.version(try await call(member, arguments), member)
    }

    private static func model(_ id: ModelID) -> Value { .uint64(UInt64(clamping: id.rawValue)) }

    // MARK: Stack

    /// Pushes `screen` on the nearest stack (`StackAppend`).
    /// - Throws: ``NavSessionError/noStack(_:)``, ``NavSessionError/unknownScreen(_:)``,
    ///   ``NavSessionError/invalidSpec(_:)``.
    @discardableResult
    public func stackAppend(_ screen: String, params: [String: String] = [:]) async throws(NavSessionError) -> UInt64 {
        try await versionCall("StackAppend", [.string(screen), .stringDictionary(params)])
    }

    /// Pops `count` elements (default 1); the root stays (`StackDropLast`).
    /// - Throws: ``NavSessionError/invalidCount(_:)`` for 0, ``NavSessionError/alreadyAtRoot(_:)``,
    ///   ``NavSessionError/noStack(_:)``.
    @discardableResult
    public func stackDropLast(_ count: UInt32 = 1) async throws(NavSessionError) -> UInt64 {
        try await versionCall("StackDropLast", [.uint32(count)])
    }

    /// Keeps only the stack's root (`StackDropToRoot`); at the root, a no-op with the same version.
    @discardableResult
    public func stackDropToRoot() async throws(NavSessionError) -> UInt64 {
        try await versionCall("StackDropToRoot")
    }

    /// Replaces the stack's root; `clear` also drops the rest of the path (`StackSetRoot`).
    @discardableResult
    public func stackSetRoot(_ screen: String, params: [String: String] = [:], clear: Bool = false)
        async throws(NavSessionError) -> UInt64
    {
        try await versionCall("StackSetRoot", [.string(screen), .stringDictionary(params), .boolean(clear)])
    }

    /// Replaces the whole path with `screens` (`StackSetPath`).
    /// - Throws: ``NavSessionError/emptyPath(_:)`` for no screens.
    @discardableResult
    public func stackSetPath(_ screens: [String]) async throws(NavSessionError) -> UInt64 {
        try await versionCall("StackSetPath", [.strings(screens)])
    }

    /// Reverses the nearest stack's path (`StackReverse`).
    @discardableResult
    public func stackReverse() async throws(NavSessionError) -> UInt64 {
        try await versionCall("StackReverse")
    }

    // MARK: Presentation

    /// Presents `screen` (`Present`).
    /// - Parameters:
    ///   - kind: `sheet`, `cover`, a custom kind the manifest declares, each optionally with `+stack`
    ///     (wrap the screen in a stack); `alert` / `confirmationDialog` present the manifest dialog named
    ///     by `screen`.
    /// - Throws: ``NavSessionError/unknownPresentationKind(_:)``, ``NavSessionError/unknownDialog(_:)``,
    ///   ``NavSessionError/slotOccupied(_:)``, ``NavSessionError/unknownScreen(_:)``.
    @discardableResult
    public func present(_ kind: String, screen: String, params: [String: String] = [:])
        async throws(NavSessionError) -> UInt64
    {
        try await versionCall("Present", [.string(kind), .string(screen), .stringDictionary(params)])
    }

    /// Presents an alert (`PresentAlert`). With no actions and a title naming a manifest alert, that alert.
    /// - Parameter actions: each action's id, title and optional role (escaped for the wire here).
    @discardableResult
    public func presentAlert(title: String, message: String = "", actions: [DialogAction] = [])
        async throws(NavSessionError) -> UInt64
    {
        try await versionCall("PresentAlert", [.string(title), .string(message), .strings(actions.map(Self.wire))])
    }

    /// Presents a confirmation dialog (`PresentConfirmationDialog`), anchored to `sourceID` when given.
    @discardableResult
    public func presentConfirmationDialog(
        title: String, message: String = "", actions: [DialogAction] = [], sourceID: String = ""
    ) async throws(NavSessionError) -> UInt64 {
        try await versionCall(
            "PresentConfirmationDialog",
            [.string(title), .string(message), .strings(actions.map(Self.wire)), .string(sourceID)])
    }

    /// An action as `id:title[:role]`, with `\` and `:` escaped inside fields.
    static func wire(_ action: DialogAction) -> String {
        func escaped(_ field: String) -> String {
            var result = ""
            for character in field {
                if character == "\\" || character == ":" { result.append("\\") }
                result.append(character)
            }
            return result
        }
        var fields = [escaped(action.id), escaped(action.title)]
        if let role = action.role { fields.append(escaped(role.rawValue)) }
        return fields.joined(separator: ":")
    }

    /// Dismisses the top presentation (`Dismiss`); never pops.
    /// - Throws: ``NavSessionError/nothingToDismiss(_:)``.
    @discardableResult
    public func dismiss() async throws(NavSessionError) -> UInt64 { try await versionCall("Dismiss") }

    /// Dismisses the presentation containing the active model (`DismissJustFromPresented`).
    /// - Throws: ``NavSessionError/notInsidePresentation(_:)``.
    @discardableResult
    public func dismissJustFromPresented() async throws(NavSessionError) -> UInt64 {
        try await versionCall("DismissJustFromPresented")
    }

    /// Hides the active model (`Hide`): a presented stack's root is dismissed, a pushed element popped.
    /// - Throws: ``NavSessionError/nothingToHide(_:)``.
    @discardableResult
    public func hide() async throws(NavSessionError) -> UInt64 { try await versionCall("Hide") }

    /// Removes the top route of the active branch, whatever it is (`GoBack`): pops a push, dismisses a
    /// presentation or an alert on top; at a tab's root, the tabs' back behaviour. `canGoBack` tells beforehand.
    /// - Throws: ``NavSessionError/nothingToGoBack(_:)``.
    @discardableResult
    public func goBack() async throws(NavSessionError) -> UInt64 { try await versionCall("GoBack") }

    /// `goBack` delivering `result` (JSON) to the model that becomes the top, atomically (a `result` message;
    /// through `Apply`).
    /// - Throws: ``NavSessionError/nothingToGoBack(_:)``.
    @discardableResult
    public func goBack(result: JSONValue) async throws(NavSessionError) -> UInt64 {
        try await executeAt(nil, .goBack(result: result))
    }

    /// Dismisses like `dismiss` and delivers `result` (JSON) to the presenter in the same change.
    /// - Throws: ``NavSessionError/nothingToDismiss(_:)``.
    @discardableResult
    public func dismiss(result: JSONValue) async throws(NavSessionError) -> UInt64 {
        try await executeAt(nil, .dismissReturning(result: result))
    }

    /// The first phase of a back gesture (`BeginBack`): whether `goBack` would be admitted now — its rule, marks,
    /// entry conditions and guard providers (waiting for a provider's answer) — changing nothing. Let the gesture
    /// begin only when this returns; pass `version` to ``commitBack(expectedVersion:)`` when it completes.
    /// - Returns: the window's version the gesture begins on, and the models `goBack` would finish.
    /// - Throws: as `goBack`: ``NavSessionError/nothingToGoBack(_:)``, ``NavSessionError/prevented(_:)``,
    ///   ``NavSessionError/denied(_:)``, ``NavSessionError/entryRefused(_:)``.
    public func beginBack() async throws(NavSessionError) -> (version: UInt64, finished: [ModelID]) {
        let reply = try await call("BeginBack")
        guard reply.count == 2, let version = reply[0].uint64, let ids = reply[1].arrayElements?.compactMap(\.uint64) else {
            throw .unexpectedReply(member: "BeginBack", signature: reply.map(\.type.description).joined())
        }
        return (version, ids.map { ModelID(rawValue: Int(clamping: $0)) })
    }

    /// The second phase (`CommitBack`): `goBack`, only if the window is still at `expectedVersion` (the version
    /// ``beginBack()`` returned); a provider's answer `beginBack` got is used without asking again.
    /// - Throws: ``NavSessionError/versionMismatch(_:)`` (the window changed meanwhile: put the page back), and
    ///   `goBack`'s.
    @discardableResult
    public func commitBack(expectedVersion: UInt64) async throws(NavSessionError) -> UInt64 {
        try await versionCall("CommitBack", [.uint64(expectedVersion)])
    }

    /// Re-enters the route the last back-like change removed (`GoForward`): created again with new ids, its
    /// tag and spec as they were, in one change. `canGoForward` tells beforehand.
    /// - Throws: ``NavSessionError/nothingToGoForward(_:)``.
    @discardableResult
    public func goForward() async throws(NavSessionError) -> UInt64 { try await versionCall("GoForward") }

    /// Makes `screen` ahead of being shown, off the visible branch (`Prepare`; React Navigation's `preload`): a later
    /// push or presentation of the same screen and params shows it under the returned id. The same one prepared
    /// already: its id, no change. ``WindowProperties/prepared`` lists them.
    /// - Throws: ``NavSessionError/unknownScreen(_:)``, ``NavSessionError/invalidSpec(_:)``.
    @discardableResult
    public func prepare(_ screen: String, params: [String: String] = [:]) async throws(NavSessionError) -> ModelID {
        let reply = try await call("Prepare", [.string(screen), .stringDictionary(params)])
        guard let raw = reply.first?.uint64 else { throw .unexpected("Prepare", reply) }
        return ModelID(rawValue: Int(clamping: raw))
    }

    /// Every presentation dismissed and the base stack at its root, in one change (`GoBackToRoot`).
    @discardableResult
    public func goBackToRoot() async throws(NavSessionError) -> UInt64 { try await versionCall("GoBackToRoot") }

    /// Back to the nearest route showing `screen`, counting from the top (on top: no change) (`GoBackTo`).
    /// - Throws: ``NavSessionError/routeNotFound(_:)``.
    @discardableResult
    public func goBackTo(screen: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("GoBackTo", [.string(screen)])
    }

    /// Back to the nearest route matching `matcher` (a screen — by name, by value with `params: .equal`, by predicate
    /// with `.containing` —, a model id or a route index), counting from the top (on top: no change).
    /// - Throws: ``NavSessionError/routeNotFound(_:)``.
    @discardableResult
    public func goBackTo(_ matcher: RouteMatcher) async throws(NavSessionError) -> UInt64 {
        try await executeAt(nil, .goBackTo(matcher))
    }

    /// Every presentation dismissed, the stacks kept (`DismissAll`); nothing presented: a no-op.
    @discardableResult
    public func dismissAll() async throws(NavSessionError) -> UInt64 { try await versionCall("DismissAll") }

    // MARK: Tabs and switched models

    /// Selects `tab` on the nearest tabs (`TabsSelectItem`); the selected tab is a no-op.
    /// - Throws: ``NavSessionError/noTabs(_:)``, ``NavSessionError/unknownTab(_:)``.
    @discardableResult
    public func tabsSelectItem(_ tab: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("TabsSelectItem", [.string(tab)])
    }

    /// Replaces the nearest switched model's content; a screen named like a scene state builds that state
    /// (`SwitchModel`; the demo: `login`, `main`).
    /// - Throws: ``NavSessionError/noSwitched(_:)``.
    @discardableResult
    public func switchModel(_ screen: String, params: [String: String] = [:]) async throws(NavSessionError)
        -> UInt64
    {
        try await versionCall("SwitchModel", [.string(screen), .stringDictionary(params)])
    }

    /// ``switchModel(_:params:)`` choosing what happens to kept state (`SwitchModelWith`, Jetpack's names):
    /// `saveState` true keeps the model left (suspended, same ids) under its screen name, false finishes it,
    /// `nil` lets the manifest decide (the scene's `savedStates`); `restoreState` true or `nil` brings back a
    /// branch kept under `screen` (same ids, `params` not applied), false builds a new one.
    /// - Throws: ``NavSessionError/noSwitched(_:)``.
    @discardableResult
    public func switchModel(
        _ screen: String, params: [String: String] = [:], saveState: Bool?, restoreState: Bool? = nil
    ) async throws(NavSessionError) -> UInt64 {
        func flag(_ value: Bool?) -> Value { .string(value.map { $0 ? "true" : "false" } ?? "") }
        return try await versionCall(
            "SwitchModelWith", [.string(screen), .stringDictionary(params), flag(saveState), flag(restoreState)])
    }

    /// Discards the branch the nearest switched container keeps under `screen` (every kept branch when `nil`);
    /// its models finish (`ClearSavedState`). Nothing kept under that name: a no-op (the unchanged version).
    /// - Throws: ``NavSessionError/noSwitched(_:)``.
    @discardableResult
    public func clearSavedState(_ screen: String? = nil) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ClearSavedState", [.string(screen ?? "")])
    }

    /// Marks `model` (`nil` = the active model) protected, owned by this connection: changes that would finish or
    /// suspend it are refused with ``NavSessionError/prevented(_:)`` (`Protect`, Docs/guards.md). `dialog` names a
    /// declared dialog presented instead of a refused change.
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/unknownDialog(_:)``,
    ///   ``NavSessionError/prevented(_:)`` (a mark another client owns).
    @discardableResult
    public func protect(_ model: ModelID? = nil, reason: String, dialog: String? = nil) async throws(NavSessionError) -> UInt64 {
        try await versionCall("Protect", [Self.model(model ?? 0), .string(reason), .string(dialog ?? "")])
    }

    /// Removes this connection's mark on `model` (`nil` = the active model) (`Unprotect`); not marked: a no-op.
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/prevented(_:)`` (another client's mark).
    @discardableResult
    public func unprotect(_ model: ModelID? = nil) async throws(NavSessionError) -> UInt64 {
        try await versionCall("Unprotect", [Self.model(model ?? 0)])
    }

    // MARK: From a model

    /// ``stackAppend(_:params:)`` walking up from `model` (`StackAppendAt`).
    /// - Throws: ``NavSessionError/unknownModel(_:)`` and the errors of ``stackAppend(_:params:)``.
    @discardableResult
    public func stackAppendAt(_ model: ModelID, screen: String, params: [String: String] = [:])
        async throws(NavSessionError) -> UInt64
    {
        try await versionCall("StackAppendAt", [Self.model(model), .string(screen), .stringDictionary(params)])
    }

    /// ``present(_:screen:params:)`` resolving the presenter from `model` (`PresentAt`).
    @discardableResult
    public func presentAt(_ model: ModelID, kind: String, screen: String, params: [String: String] = [:])
        async throws(NavSessionError) -> UInt64
    {
        try await versionCall(
            "PresentAt", [Self.model(model), .string(kind), .string(screen), .stringDictionary(params)])
    }

    /// Presents exactly on `model` (an id or a tag), not on the nearest presenter (`PresentOn`). With `replace`,
    /// what `model` already presents goes (with everything above it) and the new presentation comes, in one change.
    ///
    /// ```swift
    /// try await window.presentOn(.tag("home"), kind: "sheet", screen: "about", transition: "slide", replace: true)
    /// ```
    /// - Parameters:
    ///   - kind: as for ``present(_:screen:params:)``.
    ///   - transition: the presentation's renderer transition (`nil` = the style's default).
    /// - Returns: the new version and the models the change started.
    /// - Throws: ``NavSessionError/alreadyPresenting(_:)`` (without `replace`), ``NavSessionError/cannotPresent(_:)``
    ///   (a stack element, tab or custom child), ``NavSessionError/unknownModel(_:)``, ``NavSessionError/unknownTag(_:)``,
    ///   and the errors of ``present(_:screen:params:)``.
    @discardableResult
    public func presentOn(
        _ model: ModelReference, kind: String, screen: String, params: [String: String] = [:], transition: String? = nil,
        replace: Bool = false
    ) async throws(NavSessionError) -> ApplyResult {
        let reply = try await call(
            "PresentOn",
            [.string(model.modelID.map { String($0.rawValue) } ?? model.description), .string(kind), .string(screen), .stringDictionary(params), .string(transition ?? ""),
             .boolean(replace)])
        guard reply.count == 2, let version = reply[0].uint64, let ids = reply[1].arrayElements else {
            throw .unexpected("PresentOn", reply)
        }
        return ApplyResult(version: version, started: ids.compactMap(\.uint64).map { ModelID(rawValue: Int(clamping: $0)) })
    }

    /// Shows `screen` the way the manifest declares for it (its `style`; pushed when it declares none) (`Show`).
    /// - Throws: ``NavSessionError/noStack(_:)``, ``NavSessionError/noPresenter(_:)``,
    ///   ``NavSessionError/unknownScreen(_:)``, ``NavSessionError/invalidSpec(_:)``.
    @discardableResult
    public func show(_ screen: String, params: [String: String] = [:]) async throws(NavSessionError) -> UInt64 {
        try await versionCall("Show", [.string(screen), .stringDictionary(params)])
    }

    /// React Navigation's `popTo`: back to the nearest element of the active model's stack showing `screen` (the top
    /// included), its params then set from `params` (merged when `merge`; empty keeps them); not in the stack: it
    /// takes the top element's place (`PopTo`).
    /// - Throws: ``NavSessionError/noStack(_:)``, ``NavSessionError/unknownScreen(_:)``.
    @discardableResult
    public func popTo(_ screen: String, params: [String: String] = [:], merge: Bool = false) async throws(NavSessionError) -> UInt64 {
        try await versionCall("PopTo", [.string(screen), .stringDictionary(params), .boolean(merge)])
    }

    /// React Navigation's `pop(count)` with a source: removes `model`'s stack element and the `count - 1` below it,
    /// keeping the elements above (`PopAt`).
    /// - Throws: ``NavSessionError/noStack(_:)``, ``NavSessionError/alreadyAtRoot(_:)``, ``NavSessionError/invalidCount(_:)``.
    @discardableResult
    public func popAt(_ model: ModelID, count: UInt32 = 1) async throws(NavSessionError) -> UInt64 {
        try await versionCall("PopAt", [Self.model(model), .uint32(count)])
    }

    /// ``dismiss()`` resolving from `model` (`DismissAt`).
    @discardableResult
    public func dismissAt(_ model: ModelID) async throws(NavSessionError) -> UInt64 {
        try await versionCall("DismissAt", [Self.model(model)])
    }

    /// Dismisses the presentation containing `model` (`DismissJustFromPresentedAt`).
    @discardableResult
    public func dismissJustFromPresentedAt(_ model: ModelID) async throws(NavSessionError) -> UInt64 {
        try await versionCall("DismissJustFromPresentedAt", [Self.model(model)])
    }

    /// Hides `model` (`HideAt`).
    @discardableResult
    public func hideAt(_ model: ModelID) async throws(NavSessionError) -> UInt64 {
        try await versionCall("HideAt", [Self.model(model)])
    }

    /// Runs one command from `model`, `nil` = the active model (`ExecuteAt`).
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/invalidCommand(_:)``, the command's
    ///   own navigation error.
    @discardableResult
    public func executeAt(_ model: ModelID?, _ command: NavigationCommand) async throws(NavSessionError) -> UInt64 {
        let json = try JSONCoding.encode(command)
        return try await versionCall("ExecuteAt", [.uint64(model.map { UInt64(clamping: $0.rawValue) } ?? 0), .string(json)])
    }

    // MARK: Batches

    /// What ``apply(_:expectedVersion:)`` and ``check(_:expectedVersion:)`` return.
    public struct ApplyResult: Sendable, Hashable {
        /// The window's version after the batch (for a batch that closes the window, its last change's).
        public var version: UInt64
        /// The models the batch started, in order (for `…At` calls and renderer reports).
        public var started: [ModelID]

        /// Creates a result.
        public init(version: UInt64, started: [ModelID]) {
            self.version = version
            self.started = started
        }
    }

    /// Applies a batch atomically: all or nothing, one version bump (`Window1.Apply`).
    /// - Parameters:
    ///   - batch: the commands, each with its executing model and animation flag.
    ///   - expectedVersion: compare-and-set: the batch applies only at this version, else
    ///     ``NavSessionError/versionMismatch(_:)`` and nothing changes.
    /// - Throws: ``NavSessionError/versionMismatch(_:)``, ``NavSessionError/emptyBatch(_:)``,
    ///   ``NavSessionError/invalidBatch(_:)``, the failing command's own error (message prefixed
    ///   `command <i>:`).
    @discardableResult
    public func apply(_ batch: [BatchCommand], expectedVersion: UInt64? = nil) async throws(NavSessionError)
        -> ApplyResult
    {
        try await batchCall("Apply", batch, expectedVersion)
    }

    /// ``apply(_:expectedVersion:)`` carrying `transaction`, a JSON object chosen by the caller (swift-navigation's
    /// `UITransaction`), delivered with the change to every subscriber (``WindowChange/Changed/transaction``) and
    /// kept in the journal (`Apply`'s `transaction` option; at most 4 096 bytes as JSON).
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` (not an object, too large, or the batch carries a
    ///   `transaction` entry too), else as ``apply(_:expectedVersion:)``.
    @discardableResult
    public func apply(_ batch: [BatchCommand], expectedVersion: UInt64? = nil, transaction: JSONValue)
        async throws(NavSessionError) -> ApplyResult
    {
        try await batchCall("Apply", batch, expectedVersion, transaction: transaction)
    }

    /// Loads a whole window state as one change (`SetState`): the current models finish, the state's models
    /// start with fresh ids. Meant for test fixtures (the daemon writes a full session snapshot for it).
    /// - Parameter state: a state such as ``getState()`` returns (its ids and version are not kept).
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` (not a valid window state; the message names the rule),
    ///   ``NavSessionError/unknownScreen(_:)``, ``NavSessionError/invalidSpec(_:)``.
    @discardableResult
    public func setState(_ state: WindowSnapshot) async throws(NavSessionError) -> UInt64 {
        try await versionCall("SetState", [.string(try JSONCoding.encode(state))])
    }

    /// Makes the active branch (or, with `stack`, the branch starting at that stack) equal to `routes` as one
    /// change (`SetRoutes`; with `stack`, an `Apply` of `{"command":"setRoutes",…,"stack":…}`): the models of the
    /// longest unchanged prefix keep their ids, the rest is popped or dismissed, the new routes are created.
    ///
    /// ```swift
    /// let routes = try await window.routeList()
    /// try await window.setRoutes(routes)        // changes nothing: the same version
    /// try await window.setRoutes([.push("detail", params: ["id": "1"]), .sheet("editor", withNavigation: true)])
    /// ```
    /// - Returns: the window's version (unchanged when the branch already has these routes).
    /// - Throws: ``NavSessionError/noStack(_:)`` (a push on a layer without a stack; the message names the
    ///   route), ``NavSessionError/unknownScreen(_:)``, ``NavSessionError/invalidSpec(_:)``,
    ///   ``NavSessionError/wrongKind(_:)`` (`stack` is not a stack), ``NavSessionError/limitsExceeded(_:)``.
    @discardableResult
    public func setRoutes(_ routes: [Route], stack: ModelReference? = nil) async throws(NavSessionError) -> UInt64 {
        guard let stack else { return try await versionCall("SetRoutes", [.string(try JSONCoding.encode(routes))]) }
        return try await apply([BatchCommand(.setRoutes(routes, stack: stack))]).version
    }

    /// Dry run of ``apply(_:expectedVersion:)``: what it would return now, or its error; changes nothing.
    public func check(_ batch: [BatchCommand], expectedVersion: UInt64? = nil) async throws(NavSessionError)
        -> ApplyResult
    {
        try await batchCall("Check", batch, expectedVersion)
    }

    private func batchCall(
        _ member: String, _ batch: [BatchCommand], _ expectedVersion: UInt64?, transaction: JSONValue? = nil
    ) async throws(NavSessionError) -> ApplyResult {
        let json = try JSONCoding.encode(batch)
        var options: [String: String] = [:]
        if let expectedVersion { options["expected_version"] = String(expectedVersion) }
        if let transaction { options["transaction"] = try JSONCoding.encode(transaction) }
        let reply = try await call(member, [.string(json), .stringDictionary(options)])
        guard reply.count == 2, let version = reply[0].uint64, let ids = reply[1].arrayElements else {
            throw .unexpected(member, reply)
        }
        return ApplyResult(
            version: version, started: ids.compactMap(\.uint64).map { ModelID(rawValue: Int(clamping: $0)) })
    }

    // MARK: Messages and renderer reports

    /// Delivers message `name` to `model`'s listeners at once (`SendMessage`; `nil` = the active model).
    /// No version bump.
    public func sendMessage(_ name: String, to model: ModelID? = nil, payload: [String: String] = [:])
        async throws(NavSessionError)
    {
        _ = try await call(
            "SendMessage",
            [.uint64(model.map { UInt64(clamping: $0.rawValue) } ?? 0), .string(name), .stringDictionary(payload)])
    }

    /// Report: the user popped `stack` back to element `index` (`ReportPopped`).
    /// - Throws: ``NavSessionError/staleReport(_:)``, ``NavSessionError/wrongKind(_:)``.
    @discardableResult
    public func reportPopped(stack: ModelID, index: UInt32) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ReportPopped", [Self.model(stack), .uint32(index)])
    }

    /// Report: the user dismissed `model` interactively (`ReportDismissed`).
    /// - Throws: ``NavSessionError/notPresented(_:)``.
    @discardableResult
    public func reportDismissed(_ model: ModelID) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ReportDismissed", [Self.model(model)])
    }

    /// Report: the user selected `tab` of `tabs` (`ReportTabSelected`).
    @discardableResult
    public func reportTabSelected(tabs: ModelID, tab: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ReportTabSelected", [Self.model(tabs), .string(tab)])
    }

    // MARK: Custom containers

    /// Selects child `index` of the custom container `container` (`nil`: the nearest one at or above the active
    /// model; `SelectChild`). The active branch follows it; the selected child is a no-op.
    ///
    /// ```swift
    /// try await window.selectChild(1, of: container)   // the second segment
    /// ```
    /// - Throws: ``NavSessionError/noContainer(_:)``, ``NavSessionError/wrongKind(_:)``,
    ///   ``NavSessionError/unknownChild(_:)``, ``NavSessionError/unknownModel(_:)``.
    @discardableResult
    public func selectChild(_ index: Int, of container: ModelID? = nil) async throws(NavSessionError) -> UInt64 {
        guard let raw = UInt32(exactly: index) else {
            throw .unknownChild("index \(index) is not a child index (0, 1, …)")
        }
        return try await versionCall("SelectChild", [.uint64(UInt64(clamping: container?.rawValue ?? 0)), .uint32(raw)])
    }

    /// Selects a child named by model or tag (`.model(.tag("drafts"))`) or index, of a container named by id or
    /// tag: the `selectChild` batch command through `Apply`.
    /// - Throws: as ``selectChild(_:of:)``, and ``NavSessionError/unknownTag(_:)``.
    @discardableResult
    public func selectChild(_ child: ChildSelector, of container: ModelReference? = nil) async throws(NavSessionError)
        -> UInt64
    {
        try await apply([BatchCommand(.selectChild(container: container, child: child))]).version
    }

    /// Sets a split container's column visibility (`SetColumnVisibility`; `split` nil = the nearest split).
    /// - Throws: ``NavSessionError/noContainer(_:)``, ``NavSessionError/wrongKind(_:)``.
    @discardableResult
    public func setColumnVisibility(_ visibility: ColumnVisibility, of split: ModelID? = nil) async throws(NavSessionError)
        -> UInt64
    {
        try await versionCall(
            "SetColumnVisibility", [.uint64(UInt64(clamping: split?.rawValue ?? 0)), .string(visibility.rawValue)])
    }

    /// Report: the renderer shows the split `split` collapsed or side by side (`ReportCollapsed`).
    /// - Throws: ``NavSessionError/wrongKind(_:)``.
    @discardableResult
    public func reportCollapsed(split: ModelID, collapsed: Bool) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ReportCollapsed", [Self.model(split), .boolean(collapsed)])
    }

    /// Report: the user selected `child` of the custom container `container` (`ReportChildSelected`).
    /// - Throws: ``NavSessionError/wrongKind(_:)``, ``NavSessionError/unknownChild(_:)``.
    @discardableResult
    public func reportChildSelected(container: ModelID, child: ModelID) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ReportChildSelected", [Self.model(container), Self.model(child)])
    }

    /// Report: the user chose `action` of the alert or dialog `model` (`ReportActionChosen`).
    /// - Throws: ``NavSessionError/unknownAction(_:)``.
    @discardableResult
    public func reportActionChosen(_ model: ModelID, action: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("ReportActionChosen", [Self.model(model), .string(action)])
    }

    /// Report: the user closed the window (`ReportClosed`, same as ``SessionProxy/dismissWindow(_:)``).
    public func reportClosed() async throws(NavSessionError) {
        _ = try await call("ReportClosed")
    }

    // MARK: Reading

    /// The window's snapshot (`GetState`, Docs/state-schema.md), decoded with the core's Codable.
    /// - Throws: ``NavSessionError/unknownObject(_:)`` for a window that is gone,
    ///   ``NavSessionError/decodingFailed(_:)`` for a snapshot this library cannot read.
    public func getState() async throws(NavSessionError) -> WindowSnapshot {
        try JSONCoding.decode(WindowSnapshot.self, from: try await getStateJSON())
    }

    /// The snapshot as the daemon's JSON text, for tools that print it as it is.
    public func getStateJSON() async throws(NavSessionError) -> String {
        try Reply.string(try await call("GetState"), "GetState")
    }

    /// Registers this connection as a renderer of the window (`RegisterRenderer`, Docs/renderers.md) in `role`
    /// (`primary`, `mirror`, `assistive`), its steps planned for `capabilitiesJSON` (`""`: the window's): after each
    /// change it receives `Steps` addressed to it alone; only a primary's reports change the window.
    /// - Returns: its id on the window (`r1`, …).
    /// - Throws: ``NavSessionError/invalidArgs(_:)``, ``NavSessionError/accessDenied(_:)`` (a primary is registered,
    ///   the window's policy), ``NavSessionError/limitsExceeded(_:)``.
    public func registerRenderer(role: String, capabilitiesJSON: String = "") async throws(NavSessionError) -> String {
        try Reply.string(try await call("RegisterRenderer", [.string(role), .string(capabilitiesJSON)]), "RegisterRenderer")
    }

    /// Unregisters renderer `id` (`UnregisterRenderer`); a renderer is also gone with its connection.
    public func unregisterRenderer(_ id: String) async throws(NavSessionError) {
        _ = try await call("UnregisterRenderer", [.string(id)])
    }

    /// The window's newest announcement for assistive technologies (`GetAnnouncement`, Docs/announcements.md) in the
    /// best of `acceptLanguage`'s languages the manifest speaks (`""`: the manifest's own): the version of its change,
    /// its text and the model that should take focus; `(0, "", nil)` before any. The `Announcement` signal carries each
    /// as it happens, in the manifest's locale.
    /// - Throws: ``NavSessionError/unknownObject(_:)`` (the window closed).
    public func getAnnouncement(
        acceptLanguage: String = ""
    ) async throws(NavSessionError) -> (version: UInt64, text: String, focus: ModelID?) {
        let reply = try await call("GetAnnouncement", [.string(acceptLanguage)])
        guard reply.count == 3, let version = reply[0].uint64, let text = reply[1].string, let focus = reply[2].uint64 else {
            throw .unexpected("GetAnnouncement", reply)
        }
        return (version, text, focus == 0 ? nil : ModelID(rawValue: Int(clamping: focus)))
    }

    // MARK: Params in place, tags, bring to front

    /// Updates a live model's params in place (`SetParams`): same id, no lifecycle, an `update` step.
    /// `model` nil = the active model; `merge` (default) overwrites the given keys, else the params become exactly
    /// `params`.
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/invalidSpec(_:)`` (a parameter the
    ///   screen does not take, or a missing required one).
    @discardableResult
    public func setParams(_ params: [String: String], of model: ModelID? = nil, merge: Bool = true)
        async throws(NavSessionError) -> UInt64
    {
        try await versionCall("SetParams", [Self.model(model ?? 0), .stringDictionary(params), .boolean(!merge)])
    }

    /// React Navigation's `pushParams`: `model`'s params become exactly `params` (`nil`: the active model), and
    /// ``goBack()`` restores the ones it had first (`PushParams`).
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/invalidSpec(_:)``.
    @discardableResult
    public func pushParams(_ params: [String: String], of model: ModelID? = nil) async throws(NavSessionError) -> UInt64 {
        try await versionCall("PushParams", [Self.model(model ?? 0), .stringDictionary(params)])
    }

    // MARK: Renderer state

    /// Replaces the renderer state of `model` (nil = the window itself) with `state` (`SetRendererState`); an
    /// empty object clears it. The daemon keeps it with the graph and returns it in ``getState()``
    /// (``WindowSnapshot/rendererState`` for the window's, ``ModelState/rendererState`` for a model's).
    ///
    /// ```swift
    /// try await window.setRendererState(RendererState(["scroll": .number(420)]), for: listID)
    /// ```
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/limitsExceeded(_:)`` (over
    ///   ``RendererState/maxBytes`` or the window's content limit), ``NavSessionError/invalidCommand(_:)``.
    @discardableResult
    public func setRendererState(_ state: RendererState, for model: ModelID? = nil) async throws(NavSessionError) -> UInt64 {
        try await versionCall("SetRendererState", [Self.model(model ?? ModelID(rawValue: 0)), .string(state.json)])
    }

    // MARK: Appearance

    /// Changes a live model's appearance override in place (`SetAppearance`): same id, no lifecycle, an
    /// `appearance` step with the resolved appearance. `model` nil = the active model (a tag works:
    /// `.tag("receipt")`); `replace` false lays the set keys over the model's override, true makes the override
    /// exactly `appearance` (an empty one clears it back to the screen's declared appearance).
    ///
    /// ```swift
    /// try await window.setAppearance(Appearance(backButton: false, tabBar: false), of: .tag("receipt"))
    /// ```
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/unknownTag(_:)``.
    @discardableResult
    public func setAppearance(_ appearance: Appearance, of model: ModelReference? = nil, replace: Bool = false)
        async throws(NavSessionError) -> UInt64
    {
        let text = model.map { reference in
            switch reference {
            case .id(let id): String(id.rawValue)
            case .tag: reference.description
            }
        } ?? ""
        return try await versionCall(
            "SetAppearance", [.string(text), .string(try JSONCoding.encode(appearance)), .boolean(replace)])
    }

    /// Sets a stack's tab-bar rule (an `Apply` of `setTabBarRule`): the tab bar hides while the stack is not at
    /// its root when `hiddenWhenNotRoot`, animated when `animated` (SwiftUINavigation's
    /// `.hiddenWhenNotRoot(animated:)`). `stack` nil: the active model's stack.
    /// - Throws: ``NavSessionError/noStack(_:)``, ``NavSessionError/unknownModel(_:)``.
    @discardableResult
    public func setTabBarRule(hiddenWhenNotRoot: Bool, animated: Bool = true, stack: ModelReference? = nil)
        async throws(NavSessionError) -> UInt64
    {
        try await apply([BatchCommand(.setTabBarRule(stack: stack, hiddenWhenNotRoot: hiddenWhenNotRoot, animated: animated),
                                      animated: animated)]).version
    }

    /// Updates a live model's title in place (`SetTitle`); `model` nil = the active model.
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/invalidSpec(_:)``.
    @discardableResult
    public func setTitle(_ title: String, of model: ModelID? = nil) async throws(NavSessionError) -> UInt64 {
        try await versionCall("SetTitle", [Self.model(model ?? 0), .string(title)])
    }

    /// Moves the topmost element of the active model's stack showing `screen` to the top, keeping its id
    /// (`BringToFront`).
    /// - Throws: ``NavSessionError/screenNotInStack(_:)``, ``NavSessionError/noStack(_:)``.
    @discardableResult
    public func bringToFront(screen: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("BringToFront", [.string(screen), .string("")])
    }

    /// Moves the stack element carrying (or holding the model carrying) `tag` to the top of its stack
    /// (`BringToFront`).
    /// - Throws: ``NavSessionError/unknownTag(_:)``, ``NavSessionError/noStack(_:)``.
    @discardableResult
    public func bringToFront(tag: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("BringToFront", [.string(""), .string(tag)])
    }

    /// The model carrying an application-chosen tag (`ModelForTag`).
    /// - Throws: ``NavSessionError/unknownTag(_:)``.
    public func model(forTag tag: String) async throws(NavSessionError) -> ModelID {
        let reply = try await call("ModelForTag", [.string(tag)])
        guard let id = reply.first?.uint64, reply.count == 1 else {
            throw .unexpectedReply(member: "ModelForTag", signature: reply.map(\.type.description).joined())
        }
        return ModelID(rawValue: Int(clamping: id))
    }

    // Scheduled commands.

    /// Runs `batch` after `afterMs` milliseconds as one change from the model active now (`Schedule`); returns the
    /// batch's id (listed in the state's `scheduled` until it runs, is cancelled, or its model finishes).
    /// A caller-chosen id or the overdue rule: ``apply(_:)`` a `schedule` command.
    /// - Throws: ``NavSessionError/invalidBatch(_:)``, ``NavSessionError/limitsExceeded(_:)``.
    public func schedule(_ batch: [BatchCommand], afterMs: UInt64) async throws(NavSessionError) -> String {
        try Reply.string(
            try await call("Schedule", [.string(try JSONCoding.encode(batch)), .uint64(afterMs)]), "Schedule")
    }

    /// Cancels a scheduled batch (`CancelScheduled`); returns the new version.
    /// - Throws: ``NavSessionError/unknownScheduled(_:)``.
    @discardableResult
    public func cancelScheduled(_ id: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("CancelScheduled", [.string(id)])
    }

    /// Runs a scheduled batch now, as at its deadline (`RunScheduled`): its author's authority; a batch that fails
    /// is dropped and its error thrown. Returns the new version.
    /// - Throws: ``NavSessionError/unknownScheduled(_:)``, ``NavSessionError/accessDenied(_:)`` (another client's
    ///   batch), and the batch's error.
    @discardableResult
    public func runScheduled(_ id: String) async throws(NavSessionError) -> UInt64 {
        try await versionCall("RunScheduled", [.string(id)])
    }

    /// Takes back the window's newest change not yet undone (`Undo`, Docs/desktop.md): the window back in the state
    /// before it, the same models with the same ids, params and renderer state; returns the new version.
    /// - Throws: ``NavSessionError/nothingToUndo(_:)``, ``NavSessionError/prevented(_:)`` (a mark on a model it
    ///   would close), ``NavSessionError/denied(_:)`` (a guard).
    @discardableResult
    public func undo() async throws(NavSessionError) -> UInt64 {
        try await versionCall("Undo", [])
    }

    /// Makes the most recently undone change again (`Redo`); any other change since the undo empties what can be
    /// redone.
    /// - Throws: ``NavSessionError/nothingToRedo(_:)``, ``NavSessionError/prevented(_:)``, ``NavSessionError/denied(_:)``.
    @discardableResult
    public func redo() async throws(NavSessionError) -> UInt64 {
        try await versionCall("Redo", [])
    }

    /// Drops the window's pending navigation (`CancelPending`, Docs/guards.md); nothing when there is none.
    public func cancelPending() async throws(NavSessionError) {
        _ = try await call("CancelPending")
    }

    /// The debug tree, one model per line (`GetTree`).
    public func getTree() async throws(NavSessionError) -> String {
        try Reply.string(try await call("GetTree"), "GetTree")
    }

    /// The route view of the active branch as JSON (`GetRoutes`, Docs/routing.md): an array of
    /// `{"style":…,"screen":…,"params":{…}}` objects (`params` omitted when empty).
    public func getRoutes() async throws(NavSessionError) -> String {
        try Reply.string(try await call("GetRoutes"), "GetRoutes")
    }

    /// The route view of the active branch as ``NavigationCore/Route`` values (`GetRoutes`, decoded): the array
    /// ``setRoutes(_:stack:)`` takes back.
    public func routeList() async throws(NavSessionError) -> [Route] {
        try JSONCoding.decode([Route].self, from: try await getRoutes())
    }
}
