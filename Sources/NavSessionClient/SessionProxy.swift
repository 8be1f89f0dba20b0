import DBusKit
import NavSessionInterface
import NavigationCore

/// The daemon's session object (`org.navsession.Session1` at `/org/navsession/Session1`): windows, deep
/// links and the session-wide batch.
///
/// ```swift
/// let window = try await client.session.openWindow(scene: "main")
/// let linked = try await client.session.openURL("navsession-demo://detail/42")
/// for window in try await client.session.listWindows() { print(window.path) }
/// ```
public struct SessionProxy: Sendable {
    /// The client the calls go through.
    public let client: NavSessionClient

    /// The session object's path.
    public var path: String { ObjectPaths.session.rawValue }

    private func call(_ member: String, _ arguments: [Value] = []) async throws(NavSessionError) -> [Value] {
        try await client.call(ObjectPaths.session, ObjectPaths.sessionInterface, member, arguments)
    }

    /// Opens a window of `scene` (`OpenWindow`); single-instance scenes return their open window.
    /// - Parameters:
    ///   - scene: a scene the manifest declares (the demo: `main`, `waiting`).
    ///   - params: parameters for the scene's first screen.
    /// - Throws: ``NavSessionError/unknownScene(_:)``, ``NavSessionError/invalidArgs(_:)`` (a missing or
    ///   unknown parameter), ``NavSessionError/limitsExceeded(_:)`` (too many windows).
    public func openWindow(scene: String, params: [String: String] = [:]) async throws(NavSessionError)
        -> WindowProxy
    {
        let reply = try await call("OpenWindow", [.string(scene), .stringDictionary(params)])
        return WindowProxy(client: client, objectPath: try Reply.path(reply, "OpenWindow"))
    }

    /// Closes a window and its whole graph (`DismissWindow`).
    /// - Throws: ``NavSessionError/unknownObject(_:)`` for a window that does not exist.
    public func dismissWindow(_ window: WindowProxy) async throws(NavSessionError) {
        _ = try await call("DismissWindow", [.objectPath(window.objectPath)])
    }

    /// Opens a deep link, or announces a URL of another scheme (`OpenURL`); returns the window that
    /// handled it. A link waiting for its window to reach a state where it applies shows in
    /// ``WindowProxy/pendingDeepLink``.
    /// - Throws: ``NavSessionError/unknownRoute(_:)``, ``NavSessionError/malformedURL(_:)``,
    ///   ``NavSessionError/missingParameter(_:)``, ``NavSessionError/badParameter(_:)``, navigation errors,
    ///   ``NavSessionError/limitsExceeded(_:)``.
    @discardableResult
    public func openURL(_ url: String) async throws(NavSessionError) -> WindowProxy {
        let reply = try await call("OpenURL", [.string(url)])
        return WindowProxy(client: client, objectPath: try Reply.path(reply, "OpenURL"))
    }

    /// The open windows, in opening order (`ListWindows`).
    public func listWindows() async throws(NavSessionError) -> [WindowProxy] {
        let reply = try await call("ListWindows")
        guard let elements = reply.first?.arrayElements else { throw .unexpected("ListWindows", reply) }
        return elements.compactMap(\.objectPath).map { WindowProxy(client: client, objectPath: $0) }
    }

    /// Applies a batch to a window atomically, one version bump (`Session1.Apply`); returns the new version.
    ///
    /// ``WindowProxy/apply(_:expectedVersion:)`` does the same and also returns the models it started.
    /// - Throws: ``NavSessionError/invalidBatch(_:)``, ``NavSessionError/emptyBatch(_:)``, the failing
    ///   command's own error (its message prefixed `command <i>:`), ``NavSessionError/unknownObject(_:)``.
    @discardableResult
    public func apply(_ batch: [BatchCommand], to window: WindowProxy) async throws(NavSessionError) -> UInt64 {
        let json = try JSONCoding.encode(batch)
        return try Reply.version(try await call("Apply", [.objectPath(window.objectPath), .string(json)]), "Apply")
    }

    /// The recently closed windows, most recent first (`ListClosedWindows`).
    public func closedWindows() async throws(NavSessionError) -> [ClosedWindowInfo] {
        try JSONCoding.decode([ClosedWindowInfo].self, from: try await closedWindowsJSON())
    }

    /// `ListClosedWindows`' reply as the daemon wrote it: a JSON array, each entry with its `snapshot`.
    public func closedWindowsJSON() async throws(NavSessionError) -> String {
        let reply = try await call("ListClosedWindows")
        guard let json = reply.first?.string else { throw .unexpected("ListClosedWindows", reply) }
        return json
    }

    /// Reopens a recently closed window with its navigation, under a new window number (`ReopenWindow`).
    /// - Parameter id: a ``ClosedWindowInfo/id``; `nil` reopens the most recently closed window.
    /// - Throws: ``NavSessionError/unknownClosedWindow(_:)``, ``NavSessionError/invalidArgs(_:)`` (its
    ///   single-instance scene has a window open), ``NavSessionError/limitsExceeded(_:)``.
    @discardableResult
    public func reopenWindow(_ id: String? = nil) async throws(NavSessionError) -> WindowProxy {
        let reply = try await call("ReopenWindow", [.string(id ?? "")])
        return WindowProxy(client: client, objectPath: try Reply.path(reply, "ReopenWindow"))
    }

    /// Saves `windows` (every open window when empty) under `name` (`SaveSession`, Docs/desktop.md).
    /// - Throws: ``NavSessionError/invalidArgs(_:)``, ``NavSessionError/unknownObject(_:)``, ``NavSessionError/limitsExceeded(_:)``.
    public func saveSession(_ name: String, windows: [WindowProxy] = []) async throws(NavSessionError) {
        _ = try await call("SaveSession", [.string(name), .array(.objectPath, windows.map { .objectPath($0.objectPath) })])
    }

    /// `ListSessions`' reply: a JSON array of `{"name","savedAt","windows":[{"activeScreen","scene","title"}]}`.
    public func sessionsJSON() async throws(NavSessionError) -> String {
        try Reply.string(try await call("ListSessions"), "ListSessions")
    }

    /// Opens every window saved under `name` (`OpenSession`); the new windows in the saved order.
    /// - Throws: ``NavSessionError/unknownSession(_:)``, ``NavSessionError/invalidArgs(_:)``, ``NavSessionError/limitsExceeded(_:)``.
    public func openSession(_ name: String) async throws(NavSessionError) -> [WindowProxy] {
        let reply = try await call("OpenSession", [.string(name)])
        guard let elements = reply.first?.arrayElements else { throw .unexpected("OpenSession", reply) }
        return elements.compactMap(\.objectPath).map { WindowProxy(client: client, objectPath: $0) }
    }

    /// Deletes the session saved under `name` (`DeleteSession`).
    /// - Throws: ``NavSessionError/unknownSession(_:)``.
    public func deleteSession(_ name: String) async throws(NavSessionError) {
        _ = try await call("DeleteSession", [.string(name)])
    }

    /// Moves `model` of `window` — a tab, a pushed screen with those above it, or a presented model, with everything
    /// under it — into `target`, or into a new window when `target` is `nil` (a tear-off) (`MoveModel`,
    /// Docs/desktop.md "Move and merge"). Both windows' `Changed` carry the move in their cause, ids mapped there.
    /// - Parameters:
    ///   - model: the model; `nil` is the window's active model.
    ///   - placementJSON: where it goes (`{"tabs":3}`, `{"stack":12,"position":1}`, `{"presentOn":7}`,
    ///     `{"scene":"main"}`); empty: where its form goes.
    /// - Returns: the target window and its version after the move.
    /// - Throws: ``NavSessionError/invalidSpec(_:)`` (what cannot move, or cannot go there),
    ///   ``NavSessionError/unknownModel(_:)``, ``NavSessionError/unknownObject(_:)``, ``NavSessionError/invalidArgs(_:)``,
    ///   ``NavSessionError/limitsExceeded(_:)``.
    @discardableResult
    public func moveModel(
        _ model: ModelID?, of window: WindowProxy, to target: WindowProxy?, placementJSON: String = ""
    ) async throws(NavSessionError) -> (window: WindowProxy, version: UInt64) {
        guard let source = window.number else { throw .invalidArgs("\(window.objectPath) is not a session window") }
        let to: UInt64
        if let target {
            guard let number = target.number else { throw .invalidArgs("\(target.objectPath) is not a session window") }
            to = number
        } else {
            to = 0
        }
        let reply = try await call(
            "MoveModel",
            [.uint64(source), .uint64(UInt64(clamping: model?.rawValue ?? 0)), .uint64(to), .string(placementJSON)])
        guard reply.count == 2, let number = reply[0].uint64, let version = reply[1].uint64 else {
            throw .unexpected("MoveModel", reply)
        }
        return (client.window(number: number), version)
    }

    /// Makes `windows` the window group `name` (`GroupWindows`; `[]` dissolves it): its windows close, reopen and
    /// open together (Docs/desktop.md, "Window groups"); ``WindowProxy`` reads a window's `Group`.
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` (the name, a window twice), ``NavSessionError/unknownObject(_:)``.
    public func groupWindows(_ name: String, _ windows: [WindowProxy]) async throws(NavSessionError) {
        _ = try await call("GroupWindows", [.string(name), .array(.objectPath, windows.map { .objectPath($0.objectPath) })])
    }

    /// The built-in analytics (`GetStats`, Docs/analytics.md): visits and time per screen, guard decisions, funnels,
    /// counted from the journal. `queryJSON`: `""`, or `{"format":"openmetrics"}` for the OpenMetrics text,
    /// `{"screens":["detail"]}` for some screens only.
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` (a malformed query).
    public func getStats(_ queryJSON: String = "") async throws(NavSessionError) -> String {
        try Reply.string(try await call("GetStats", [.string(queryJSON)]), "GetStats")
    }

    /// Sets who may change `window` (`SetWindowPolicy`, Docs/window-policy.md): `policyJSON` such as
    /// `{"change":["self","app:org.example.Remote"],"manage":["host"]}`, `""` to remove it. Every change of the window
    /// by a client the policy does not name is then ``NavSessionError/accessDenied(_:)``; reads answer anyone.
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` (a malformed policy), ``NavSessionError/unknownObject(_:)``,
    ///   ``NavSessionError/accessDenied(_:)`` (this client may not manage the window's policy).
    public func setWindowPolicy(_ window: WindowProxy, policyJSON: String) async throws(NavSessionError) {
        guard let number = window.number else { throw .invalidArgs("\(window.objectPath) is not a session window") }
        _ = try await call("SetWindowPolicy", [.uint64(number), .string(policyJSON)])
    }

    /// What serving `manifestJSON` would do to every window, changing nothing (`CheckManifest`, Docs/manifest.md
    /// "Changing the manifest"): the report's JSON, window by window (`keep`, `migrate`, `reset`, `close`).
    /// - Throws: ``NavSessionError/invalidManifest(_:)`` (it does not validate, or names another application).
    public func checkManifest(_ manifestJSON: String) async throws(NavSessionError) -> String {
        try Reply.string(try await call("CheckManifest", [.string(manifestJSON)]), "CheckManifest")
    }

    /// Serves `manifestJSON` from now on, every window migrated by its `renamed` and `fallback` maps as one change
    /// (`ReloadManifest`).
    /// - Throws: ``NavSessionError/invalidManifest(_:)`` (nothing changes), ``NavSessionError/storageFailed(_:)``.
    public func reloadManifest(_ manifestJSON: String) async throws(NavSessionError) {
        _ = try await call("ReloadManifest", [.string(manifestJSON)])
    }

    /// Ties the window to this connection (`SetCloseOnExit`): it closes when this client leaves the bus.
    /// - Throws: ``NavSessionError/unknownObject(_:)``; ``NavSessionError/accessDenied(_:)`` when another
    ///   client holds the tie.
    public func setCloseOnExit(_ window: WindowProxy, _ enabled: Bool = true) async throws(NavSessionError) {
        _ = try await call("SetCloseOnExit", [.objectPath(window.objectPath), .boolean(enabled)])
    }

    /// Makes this connection the provider of a guard the manifest declares (`RegisterGuard`, Docs/guards.md):
    /// export `org.navsession.GuardProvider1` at `/org/navsession/GuardProvider1` on ``NavSessionClient/bus``
    /// first (``NavSessionClient/provideGuards(_:)`` does both).
    /// - Throws: ``NavSessionError/unknownGuard(_:)``, ``NavSessionError/guardTaken(_:)``.
    public func registerGuard(_ name: String) async throws(NavSessionError) {
        _ = try await call("RegisterGuard", [.string(name)])
    }

    /// Says this provider's answers for a guard may have changed (`RefreshGuard`): the daemon drops the answers it
    /// kept for `Check`, `BeginBack` and the `Can*` properties and asks again.
    public func refreshGuard(_ name: String) async throws(NavSessionError) {
        _ = try await call("RefreshGuard", [.string(name)])
    }

    /// Ends this connection's registration for a guard (`UnregisterGuard`).
    /// - Throws: ``NavSessionError/unknownGuard(_:)``, ``NavSessionError/accessDenied(_:)`` (not ours).
    public func unregisterGuard(_ name: String) async throws(NavSessionError) {
        _ = try await call("UnregisterGuard", [.string(name)])
    }

    /// Every declared guard and its provider's unique name (`""`: none) (`ListGuards`).
    public func guards() async throws(NavSessionError) -> [String: String] {
        let reply = try await call("ListGuards")
        guard case .dictionary(_, _, let entries)? = reply.first else { return [:] }
        var result: [String: String] = [:]
        for entry in entries {
            if let key = entry.key.string, let value = entry.value.string { result[key] = value }
        }
        return result
    }

    /// Plans the one-step route states from one route view to another (`Plan`, Docs/routing.md).
    /// - Parameters:
    ///   - from: the start routes, as the JSON array ``WindowProxy/getRoutes()`` returns.
    ///   - to: the target routes (same form).
    ///   - multiDismiss: the renderer can dismiss several presentations in one update.
    ///   - pushesInOne: the renderer can push several screens in one update.
    /// - Returns: the states as a JSON array of route arrays.
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` for routes that do not decode.
    public func plan(from: String, to: String, multiDismiss: Bool = false, pushesInOne: Bool = false)
        async throws(NavSessionError) -> String
    {
        try Reply.string(
            try await call("Plan", [.string(from), .string(to), .boolean(multiDismiss), .boolean(pushesInOne)]),
            "Plan")
    }

    // MARK: Properties

    /// The open windows (property `Windows`).
    public var windows: [WindowProxy] {
        get async throws(NavSessionError) {
            let value = try await client.property(ObjectPaths.session, ObjectPaths.sessionInterface, NavSessionInterface.Session1.windows)
            guard let elements = value.arrayElements else { throw .unexpected("Get(Windows)", [value]) }
            return elements.compactMap(\.objectPath).map { WindowProxy(client: client, objectPath: $0) }
        }
    }

    /// The scenes the manifest declares (property `Scenes`).
    public var scenes: [String] {
        get async throws(NavSessionError) {
            let value = try await client.property(ObjectPaths.session, ObjectPaths.sessionInterface, NavSessionInterface.Session1.scenes)
            guard let elements = value.arrayElements else { throw .unexpected("Get(Scenes)", [value]) }
            return elements.compactMap(\.string)
        }
    }

    /// The screens the manifest declares, in its order (property `Screens`).
    public var screens: [String] {
        get async throws(NavSessionError) {
            let value = try await client.property(ObjectPaths.session, ObjectPaths.sessionInterface, NavSessionInterface.Session1.screens)
            guard let elements = value.arrayElements else { throw .unexpected("Get(Screens)", [value]) }
            return elements.compactMap(\.string)
        }
    }

    /// The session version: +1 per window opened or closed (property `Version`).
    public var version: UInt64 {
        get async throws(NavSessionError) {
            let value = try await client.property(ObjectPaths.session, ObjectPaths.sessionInterface, NavSessionInterface.Session1.version)
            guard let version = value.uint64 else { throw .unexpected("Get(Version)", [value]) }
            return version
        }
    }

    /// The application id (property `ApplicationId`).
    public var applicationID: String {
        get async throws(NavSessionError) {
            let value = try await client.property(
                ObjectPaths.session, ObjectPaths.sessionInterface, NavSessionInterface.Session1.applicationID)
            guard let id = value.string else { throw .unexpected("Get(ApplicationId)", [value]) }
            return id
        }
    }
}

/// The daemon's `org.freedesktop.Application` object (at the application id with `.` as `/`).
///
/// ```swift
/// try await client.application.activate()                          // a window of the default scene
/// try await client.application.open(["navsession-demo://detail/7"])
/// try await client.application.activateAction("new-window", parameters: ["waiting"])
/// ```
public struct ApplicationProxy: Sendable {
    /// The client the calls go through.
    public let client: NavSessionClient

    /// The application object's path.
    public var path: String { ObjectPaths.application(client.destination).rawValue }

    private func call(_ member: String, _ arguments: [Value]) async throws(NavSessionError) {
        _ = try await client.call(
            ObjectPaths.application(client.destination), ObjectPaths.applicationInterface, member, arguments)
    }

    /// Platform data for the `a{sv}` argument: string values only.
    private static func platformData(_ data: [String: String]) -> Value {
        .options(data.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value)) })
    }

    /// `Activate`: opens a window of the default scene unless one exists.
    public func activate(platformData: [String: String] = [:]) async throws(NavSessionError) {
        try await call("Activate", [Self.platformData(platformData)])
    }

    /// `Open`: each URI as ``SessionProxy/openURL(_:)``, in order; the first error is thrown.
    public func open(_ uris: [String], platformData: [String: String] = [:]) async throws(NavSessionError) {
        try await call("Open", [.strings(uris), Self.platformData(platformData)])
    }

    /// `ActivateAction`: `new-window` (optional scene as the first parameter) or `quit`.
    /// - Throws: ``NavSessionError/notSupported(_:)`` for an action the daemon does not offer.
    public func activateAction(
        _ name: String, parameters: [String] = [], platformData: [String: String] = [:]
    ) async throws(NavSessionError) {
        try await call("ActivateAction", [
            .string(name), .array(.variant, parameters.map { .variant(.string($0)) }),
            Self.platformData(platformData),
        ])
    }
}
