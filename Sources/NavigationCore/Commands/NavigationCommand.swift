/// A primitive navigation command (§3 of the brief), executed from a model.
///
/// Run one with ``NavigationWindow/execute(_:from:animated:)`` or several atomically with
/// ``NavigationWindow/apply(_:)``. Every failure is a typed ``NavigationError``; a failed command changes
/// nothing. "Walk-up" means: from the executing model through its ancestors (itself included) to the
/// first model of the needed kind.
///
/// ```swift
/// try window.execute(.stackAppend(.screen("detail", params: ["id": "42"])))
/// try window.execute(.present(.sheet(.stacked(.screen("compose")))))
/// try window.execute(.dismiss, from: sheetID)
/// ```
public indirect enum NavigationCommand: Hashable, Sendable {
    /// Walk-up to a stack and push the elements. Fails: ``NavigationError/noStack(from:)``.
    /// With `singleTop`, a first model showing the screen already on top of the stack (same screen, and the same
    /// tag when the spec has one) is not pushed again: the top's params (and title, when given) are replaced in
    /// place (an `update` step) and the other models are pushed above it.
    case stackAppend([StackElementSpec], singleTop: Bool = false)
    /// Drop `min(count, path.count - 1)` elements. Fails: no stack, already at root, count < 1.
    case stackDropLast(Int)
    /// React Navigation's `pop(count)` with a `source`: removes the executing model's element of its stack (the
    /// element it is or sits in; the top when it is the stack or above it) and the `count - 1` elements below it,
    /// never the root; the elements above it stay. From the active model it is `stackDropLast`.
    /// JSON: `{"command":"pop","count"?:2,"from":12}`. Fails: ``NavigationError/noStack(from:)``,
    /// ``NavigationError/alreadyAtStackRoot(stack:)`` (the element is the root), ``NavigationError/invalidCount(_:)``.
    case pop(count: Int = 1)
    /// Keep element 0 only. Fails: no stack. At the root already it succeeds and changes nothing.
    case stackDropToRoot
    /// `clear` → path becomes `[model]`; otherwise element 0 is replaced and the rest kept. Fails: no stack.
    case stackSetRoot(ModelSpec, clear: Bool)
    /// Replace the whole path. Fails: no stack, empty result, entries that are not elements of the stack.
    case stackSetPath([PathEntry])
    /// Present: target is the executing model if the presentation has a `sourceID`, else the nearest presenter.
    case present(PresentationSpec)
    /// Present exactly on `on` (an id or a tag), not on the nearest presenter. With `replace`, what `on` already
    /// presents (and everything above it) is dismissed first, in the same change: the steps are the dismissal,
    /// then the presentation. JSON: `{"command":"present","on":12,"replace":true,"presentation":{…}}`.
    /// Fails: ``NavigationError/alreadyPresenting(model:presented:screen:)`` (without `replace`),
    /// ``NavigationError/cannotPresentOn(_:screen:)``, ``NavigationError/presenterIsLeaf(_:)``, unknown model or tag.
    case presentOn(PresentationSpec, on: ModelReference, replace: Bool = false)
    /// Show `screen` the way the manifest declares for it (its `style`): pushed (walk-up to a stack, the default
    /// for a screen that declares none) or presented by the nearest presenter as a sheet, cover or custom kind;
    /// `transition` as for any push or presentation (``TransitionRules``).
    /// JSON: `{"command":"show","screen":"compose","params":{…},"transition"?:"slide"}`.
    case show(screen: String, params: [String: String] = [:], transition: String? = nil)
    /// React Navigation's `popTo(name, params, {merge})` on the stack of the executing model (walk-up): back to the
    /// nearest element showing `screen`, counting from the top (the top included: nothing is popped), its params
    /// then replaced by `params` (merged when `merge`) when given, same id; when no element shows it, a new
    /// element showing it takes the top element's place (the root's, at the root).
    /// JSON: `{"command":"popTo","screen":"detail","params"?:{…},"merge"?:true}`.
    /// Fails: ``NavigationError/noStack(from:)``.
    case popTo(screen: String, params: [String: String]? = nil, merge: Bool = false)
    /// React Navigation's `replace(name, params)` on the stack of the executing model (walk-up): the top element
    /// finishes and a new element showing `screen` takes its place (the root's, at the root), pushed with
    /// `transition` or the one the screen's rules give. JSON: `{"command":"replace","screen":"detail","params"?:{…},
    /// "transition"?:"fade"}`. Fails: ``NavigationError/noStack(from:)``, an unknown screen, limits.
    case replace(screen: String, params: [String: String] = [:], transition: String? = nil)
    /// Dismiss the nearest presentation or pushed element. Fails: ``NavigationError/nothingToDismiss(from:)``.
    case dismiss
    /// `dismiss` plus a `result` message (payload: the result's JSON text) to the presenter, or to the element
    /// that becomes the top of a popped stack, in the same change. JSON: `{"command":"dismiss","result":…}`.
    case dismissReturning(result: JSONValue)
    /// Remove the top route of the active branch, whatever it is: pop a push, dismiss a presentation (a
    /// presented stack at its root: the whole presentation), dismiss an alert or dialog on top; at a tab's
    /// root, the tab container's back behaviour. An optional `result` goes to the model that becomes the top.
    /// Fails: ``NavigationError/nothingToGoBack(from:)``.
    case goBack(result: JSONValue?)
    /// Every presentation of the active branch dismissed and every stack of its first layer at its root,
    /// in one change. At the root already: no change.
    case goBackToRoot
    /// Back to the nearest route of the active branch that matches, counting from the top (a match on top changes
    /// nothing), across layers.
    /// Fails: ``NavigationError/routeNotFound(_:)``.
    case goBackTo(RouteMatcher)
    /// Every presentation of the active branch dismissed, the base stacks kept. Nothing presented: no change.
    case dismissAll
    /// Dismiss the presentation containing the executing model. Fails: not inside a presentation.
    case dismissJustFromPresented
    /// Root of a presented stack → dismiss it; pushed element → pop back to just below it. Fails: neither.
    case hide
    /// Walk-up to a tab container and select the tab. Fails: no tabs, unknown tab id.
    case tabsSelectItem(String)
    /// Walk-up to a switched container and replace its model. The old subtree finishes, unless it is kept
    /// (`saveState`, default: whether its screen is in ``WindowConfiguration/savedStates``): then it is
    /// suspended under its screen name. With `restoreState` (default true) a branch kept under the spec's
    /// screen comes back (same ids, spec not instantiated) instead of a new model.
    case switchModel(ModelSpec, saveState: Bool? = nil, restoreState: Bool? = nil)
    /// Walk-up to a switched container and discard the branch it keeps under `screen` (every kept branch
    /// when `nil`); their models finish. Nothing kept under that name: no change.
    case clearSavedState(screen: String?)
    /// Effect: ask the session to open a window of `scene`. Fails: empty scene.
    case openWindow(scene: String, params: [String: String])
    /// Effect: ask the session to close window `id` (`nil` = this window). Fails: empty id.
    case dismissWindow(id: String?)
    /// Effect: announce a URL to open (deep links are the session's business). Fails: not `scheme:rest`.
    case openURL(String)
    /// Effect: an application-defined trigger with a payload.
    case trigger(name: String, payload: String)
    /// Deliver an application message to a model when the change commits. Fails: unknown recipient.
    case sendMessage(NavigationMessage, to: MessageTarget)
    /// Run several commands from the same executing model, in order (an application-defined composite).
    case sequence([NavigationCommand])
    /// Make the window's active branch (or the branch starting at stack `stack`) equal to `routes`: the models
    /// of the longest unchanged prefix stay, the rest is popped or dismissed and the new routes are created, in
    /// one change. Equal to the current routes: no change. Fails: ``NavigationError/routeFailed(index:_:)``,
    /// ``NavigationError/wrongKind(_:expected:)`` when `stack` is not a stack, limits.
    case setRoutes([Route], stack: ModelReference?)
    /// Update a live model's params and/or title in place: same id, no lifecycle events, an `update` step.
    /// `model` nil = the executing model; `merge` (the default) overwrites the given keys, otherwise the params
    /// become exactly `params`. Fails: unknown model or tag, nothing to change, params the screen does not take.
    case setParams(model: ModelReference? = nil, params: [String: String]?, title: String? = nil, merge: Bool = true)
    /// React Navigation's `pushParams`: the model's params become exactly `params` (same id, an `update` step) and
    /// the ones it had are kept, so `goBack` on it restores them before anything else goes back. At most
    /// ``NavigationWindow/maxParamsHistory`` kept per model, oldest dropped. `model` nil = the executing model.
    /// JSON: `{"command":"pushParams","params":{"q":"shoes"},"model"?:12}`. Fails: unknown model or tag, params the
    /// screen does not take.
    case pushParams(model: ModelReference? = nil, params: [String: String])
    /// Move an existing stack element (the topmost showing a screen, or a model) to the top of its stack,
    /// keeping its id; the elements above it shift down. On top already: no change.
    case bringToFront(BringToFrontTarget)
    /// Mark a live model (`nil` = the executing model) protected: any change that would finish or suspend it
    /// is refused with ``NavigationError/prevented(model:reason:dialog:owner:)`` (Docs/guards.md). `owner` is the
    /// client making the change (the session fills it in from the caller; `nil` = no client). Re-protecting by
    /// the owner replaces reason and dialog. Fails: unknown model, a mark owned by another client (`prevented`).
    case protect(model: ModelReference? = nil, reason: String, dialog: String? = nil, owner: String? = nil)
    /// Remove a model's mark. Not marked: no change. Fails: a mark owned by another client (`prevented`).
    case unprotect(model: ModelReference? = nil, owner: String? = nil)
    // Appearance.
    /// Change a live model's appearance override in place (`nil` model = the executing model): `merge` (the
    /// default) sets the given keys over the current override, otherwise the override becomes exactly
    /// `appearance` (`{}` clears it back to the screen's declared appearance). Same id, no lifecycle, an
    /// `appearance` step carrying the resolved appearance. Nothing changes: no change. Fails: unknown model or tag.
    case setAppearance(model: ModelReference? = nil, Appearance, merge: Bool = true)
    /// Set a live stack's tab-bar rule (walk-up from the executing model when `stack` is `nil`): whether the tab
    /// bar hides while the stack is not at its root, and whether hiding and showing it is animated. A
    /// `tabBarRule` step; equal to the current rule: no change. Fails: no stack, `stack` not a stack.
    case setTabBarRule(stack: ModelReference? = nil, hiddenWhenNotRoot: Bool, animated: Bool = true)
    // Selectable custom containers.
    /// Select a child of a custom container (`container` nil = the nearest one at or above the executing model):
    /// the active branch follows it; a `selectChild` step. Selected already: no change. Fails:
    /// ``NavigationError/noContainer(from:)``, ``NavigationError/wrongKind(_:expected:)``,
    /// ``NavigationError/unknownChild(container:child:count:)``.
    case selectChild(container: ModelReference?, child: ChildSelector)
    /// A split container's column visibility (`container` nil = the nearest split); a `columnVisibility` step.
    /// Unchanged: no change. Fails: ``NavigationError/noContainer(from:)``, ``NavigationError/wrongKind(_:expected:)``.
    case setColumnVisibility(container: ModelReference?, visibility: ColumnVisibility)
    /// A caller-chosen JSON object carried with the change (swift-navigation's
    /// `UITransaction`). Changes nothing in the graph: it travels in the batch, so in the journal and in
    /// `Changed`'s `cause_json`. At most one per change, an object of at most ``GraphLimits/maxTextBytes``
    /// bytes as JSON text. JSON: `{"command":"transaction","payload":{…}}`.
    case transaction(JSONValue)
    // Scheduled commands (Docs/navigation-core.md, "Scheduled commands").
    /// Schedule a batch to run later from the executing model, as one change of its own (``ScheduledBatch``).
    /// Fails: a duplicate id (``NavigationError/duplicateScheduled(_:)``), a delay or count over the limits.
    case schedule(ScheduleSpec)
    /// Cancel a scheduled batch. Fails: ``NavigationError/unknownScheduled(_:)``.
    case cancelScheduled(String)
    // Back and forward (Docs/navigation-core.md, "Back and forward").
    /// Re-enter the first `count` routes of the window's forward list (what back-like changes removed from
    /// the active branch), in one change: pushes and presentations with new ids, their tags and specs as they
    /// were. JSON: `{"command":"goForward","count"?:2}`. Fails: ``NavigationError/nothingToGoForward(requested:available:)``,
    /// ``NavigationError/invalidCount(_:)`` for a count below 1.
    case goForward(count: Int = 1)
    // Renderer state.
    /// Store a renderer's own JSON object for a model (`nil` = the window itself; `0` in JSON and on the bus),
    /// replacing what was there; an empty object clears it (``RendererState``). At most
    /// ``RendererState/maxBytes`` bytes as canonical JSON, counted in the window's content cost. Versioned: a
    /// `rendererState` step, no lifecycle. Equal to what is stored: no change. Fails: unknown model or tag.
    case setRendererState(model: ModelReference?, RendererState)
    /// Make a plain screen ahead of being shown, off the visible branch (``PreparedModel``; Window1 `Prepare`): a
    /// later push or presentation of the same screen and params takes its id. JSON:
    /// `{"command":"prepare","model":{"screen":"detail","params":{"id":"42"}}}`. The same one prepared already: no change.
    case prepare(ModelSpec)
    // Windows.
    /// Move a model with everything under it to another window (`toWindow`; 0 = a new window): Session1 `MoveModel` as
    /// a command, carried out by the session, alone in its batch; `model` `nil` is the
    /// entry's executing model. JSON: `{"command":"moveModel","model":7,"toWindow":2,"placement":{"tabs":3}}`
    /// (``MovePlacement``). Fails elsewhere (in a sequence, a handler, a schedule, beside other commands):
    /// ``NavigationError/invalidSpec(_:)``.
    case moveModel(model: ModelReference?, toWindow: Int, placement: MovePlacement)

    /// Push one or several models with the same transition.
    public static func stackAppend(_ models: ModelSpec..., transition: String? = nil) -> NavigationCommand {
        .stackAppend(models.map { StackElementSpec($0, transition: transition) })
    }

    /// Make the active branch equal to `routes` (see ``setRoutes(_:stack:)``).
    public static func setRoutes(_ routes: [Route]) -> NavigationCommand { .setRoutes(routes, stack: nil) }

    /// Pop one element.
    public static var stackDropLast: NavigationCommand { .stackDropLast(1) }

    /// Re-enter the most recent forward entry.
    public static var goForward: NavigationCommand { .goForward(count: 1) }

    /// Go back without a result.
    public static var goBack: NavigationCommand { .goBack(result: nil) }

    /// Replace the stack root, keeping the pushed elements.
    public static func stackSetRoot(_ model: ModelSpec) -> NavigationCommand { .stackSetRoot(model, clear: false) }

    /// Run `commands` `afterMs` milliseconds from now from the executing model (``ScheduleSpec``): `id` `nil` lets
    /// the window assign `s<n>`; `overdue` says what happens when the deadline passed while the daemon was down.
    public static func schedule(
        _ commands: [BatchCommand], afterMs: Int, id: String? = nil, overdue: OverdueRule = .run
    ) -> NavigationCommand {
        .schedule(ScheduleSpec(id: id, afterMs: afterMs, commands: commands, overdue: overdue))
    }

    /// Announce a URL (see ``openURL(_:)``).
    public static func open(url: String) -> NavigationCommand { .openURL(url) }

    /// The command's JSON name (`"stackAppend"`, `"present"`, …).
    public var name: String {
        switch self {
        case .stackAppend: "stackAppend"
        case .stackDropLast: "stackDropLast"
        case .pop: "pop"
        case .stackDropToRoot: "stackDropToRoot"
        case .stackSetRoot: "stackSetRoot"
        case .stackSetPath: "stackSetPath"
        case .present, .presentOn: "present"
        case .show: "show"
        case .popTo: "popTo"
        case .replace: "replace"
        case .dismiss, .dismissReturning: "dismiss"
        case .goBack: "goBack"
        case .goBackToRoot: "goBackToRoot"
        case .goBackTo: "goBackTo"
        case .dismissAll: "dismissAll"
        case .dismissJustFromPresented: "dismissJustFromPresented"
        case .hide: "hide"
        case .tabsSelectItem: "tabsSelectItem"
        case .switchModel: "switchModel"
        case .clearSavedState: "clearSavedState"
        case .openWindow: "openWindow"
        case .dismissWindow: "dismissWindow"
        case .openURL: "openURL"
        case .trigger: "trigger"
        case .sendMessage: "sendMessage"
        case .sequence: "sequence"
        case .setRoutes: "setRoutes"
        case .setParams: "setParams"
        case .pushParams: "pushParams"
        case .bringToFront: "bringToFront"
        case .protect: "protect"
        case .unprotect: "unprotect"
        case .setAppearance: "setAppearance"
        case .setTabBarRule: "setTabBarRule"
        case .selectChild: "selectChild"
        case .setColumnVisibility: "setColumnVisibility"
        case .transaction: "transaction"
        case .schedule: "schedule"
        case .cancelScheduled: "cancelScheduled"
        case .goForward: "goForward"
        case .setRendererState: "setRendererState"
        case .moveModel: "moveModel"
        case .prepare: "prepare"
        }
    }
}

extension NavigationCommand {
    /// What a command does to the routes of the active branch, declared once per command: the forward list
    /// (``NavigationWindow/canGoForward``) and `Undo`'s label both follow from it.
    public enum Intent: Sendable {
        /// Adds routes (push, present, show, a new root): "open" to `Undo`; the forward list is cleared.
        case opens
        /// Makes the routes what it names (a path, routes given, an element brought to the top): the forward list
        /// is cleared.
        case rearranges
        /// Removes routes from the top: "close" to `Undo`; what it removes joins the forward list.
        case closes
        /// Changes the branch (a tab, a switched model, a container's child): "switch to" to `Undo`; the forward
        /// list is cleared by the change it records.
        case switches
        /// Edits a live model in place: "edit" to `Undo`.
        case edits
        /// Re-enters the forward list (which it manages itself): "open" to `Undo`.
        case goesForward
        /// Leaves the routes alone: content, marks, effects, messages, scheduling.
        case other
    }

    /// The command's ``Intent``.
    public var intent: Intent {
        switch self {
        case .stackAppend, .stackSetRoot, .present, .presentOn, .show, .replace: .opens
        case .stackSetPath, .setRoutes, .bringToFront: .rearranges
        case .stackDropLast, .pop, .stackDropToRoot, .dismiss, .dismissReturning, .goBack, .goBackToRoot, .goBackTo, .popTo,
            .dismissAll, .dismissJustFromPresented, .hide:
            .closes
        case .tabsSelectItem, .switchModel, .selectChild: .switches
        case .setParams, .pushParams: .edits
        case .goForward: .goesForward
        case .clearSavedState, .openWindow, .dismissWindow, .openURL, .trigger, .sendMessage, .sequence, .protect, .unprotect,
            .setAppearance, .setTabBarRule, .setColumnVisibility, .transaction, .schedule, .cancelScheduled,
            .setRendererState, .moveModel, .prepare:
            .other
        }
    }

    /// Something a command names that an application's manifest declares, with the key it stands at in the
    /// command's JSON (`""`: the command itself): what a manifest checks in the commands it carries.
    public enum Named {
        /// A model to create (and its subtree).
        case spec(ModelSpec, key: String)
        /// A plain screen with params.
        case screen(String, params: [String: String], key: String)
        /// A presentation (its style and model).
        case presentation(PresentationSpec, key: String)
        /// A scene to open a window of.
        case scene(String, key: String)
        /// A command it carries.
        case command(NavigationCommand, key: String)
    }

    /// What the command names (``Named``), in the order of its JSON.
    public var named: [Named] {
        switch self {
        case .stackAppend(let elements, _):
            elements.enumerated().map { .spec($1.model, key: "models[\($0)]") }
        case .stackSetRoot(let model, _), .switchModel(let model, _, _), .prepare(let model):
            [.spec(model, key: "model")]
        case .stackSetPath(let entries):
            entries.enumerated().compactMap { index, entry in
                if case .new(let element) = entry { .spec(element.model, key: "path[\(index)]") } else { nil }
            }
        case .present(let presentation), .presentOn(let presentation, _, _):
            [.presentation(presentation, key: "presentation")]
        case .show(let screen, let params, _), .replace(let screen, let params, _):
            [.screen(screen, params: params, key: "")]
        case .popTo(let screen, let params, _):
            [.screen(screen, params: params ?? [:], key: "")]
        case .openWindow(let scene, _):
            [.scene(scene, key: "scene")]
        case .sequence(let commands):
            commands.enumerated().map { .command($1, key: "commands[\($0)]") }
        case .schedule(let spec):
            spec.commands.enumerated().map { .command($1.command, key: "commands[\($0)]") }
        case .setRoutes(let routes, _):
            routes.enumerated().map { .screen($1.screen, params: $1.params, key: "routes[\($0)]") }
        case .stackDropLast, .pop, .stackDropToRoot, .dismiss, .dismissReturning, .goBack, .goBackToRoot, .goBackTo,
            .dismissAll, .dismissJustFromPresented, .hide, .tabsSelectItem, .selectChild, .setParams, .pushParams,
            .clearSavedState, .dismissWindow, .openURL, .trigger, .sendMessage, .protect, .unprotect, .setAppearance,
            .setTabBarRule, .setColumnVisibility, .transaction, .cancelScheduled, .goForward, .setRendererState, .moveModel,
            .bringToFront:
            []
        }
    }
}

/// JSON form of commands: a flat object tagged by `"command"`, its keys declared in scripts/generate-schemas
/// (``names`` and ``fields`` are generated from there). See `Docs/state-schema.md`.
///
/// Unknown command names, unknown keys and missing or mistyped fields throw `DecodingError` with a
/// message naming the problem (the D-Bus service maps these to `InvalidBatch`/`InvalidCommand`).
extension NavigationCommand: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, alsoAllowing: [])
    }

    /// Decodes a command whose object may also hold the wrapper's `extra` keys (a batch entry's `from`).
    init(from decoder: any Decoder, alsoAllowing extra: [String]) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        let name = try c.decode(String.self, forKey: "command")
        try self.init(named: name, from: c)
        try StrictKeys.check(decoder, allowed: ["command"] + (Self.fields[name] ?? []) + extra)
    }

    private init(named name: String, from c: KeyedDecodingContainer<JSONKey>) throws {
        switch name {
        case "stackAppend":
            self = .stackAppend(
                try c.decode([StackElementSpec].self, forKey: "models"),
                singleTop: try c.decodeIfPresent(Bool.self, forKey: "singleTop") ?? false)
        case "stackDropLast": self = .stackDropLast(try c.decodeInteger("count", in: Int.min...Int.max) ?? 1)
        case "pop": self = .pop(count: try c.decodeInteger("count", in: Int.min...Int.max) ?? 1)
        case "stackDropToRoot": self = .stackDropToRoot
        case "stackSetRoot":
            self = .stackSetRoot(
                try c.decode(ModelSpec.self, forKey: "model"), clear: try c.decodeIfPresent(Bool.self, forKey: "clear") ?? false)
        case "stackSetPath": self = .stackSetPath(try c.decode([PathEntry].self, forKey: "path"))
        case "present":
            let presentation = try c.decode(PresentationSpec.self, forKey: "presentation")
            let replace = try c.decodeIfPresent(Bool.self, forKey: "replace")
            if let on = try c.decodeIfPresent(ModelReference.self, forKey: "on") {
                self = .presentOn(presentation, on: on, replace: replace ?? false)
            } else if replace != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: "replace", in: c, debugDescription: "\"replace\" needs \"on\" (the model whose presentation it replaces)")
            } else {
                self = .present(presentation)
            }
        case "show":
            let transition = try c.decodeIfPresent(String.self, forKey: "transition")
            if let transition, let problem = PresentationSpec.transitionProblem(transition) {
                throw DecodingError.dataCorruptedError(forKey: "transition", in: c, debugDescription: problem)
            }
            self = .show(
                screen: try c.decode(String.self, forKey: "screen"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:], transition: transition)
        case "replace":
            let transition = try c.decodeIfPresent(String.self, forKey: "transition")
            if let transition, let problem = PresentationSpec.transitionProblem(transition) {
                throw DecodingError.dataCorruptedError(forKey: "transition", in: c, debugDescription: problem)
            }
            self = .replace(
                screen: try c.decode(String.self, forKey: "screen"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:], transition: transition)
        case "popTo":
            self = .popTo(
                screen: try c.decode(String.self, forKey: "screen"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params"),
                merge: try c.decodeIfPresent(Bool.self, forKey: "merge") ?? false)
        case "dismiss":
            if let result = try c.decodeIfPresent(JSONValue.self, forKey: "result") {
                self = .dismissReturning(result: result)
            } else {
                self = .dismiss
            }
        case "goBack": self = .goBack(result: try c.decodeIfPresent(JSONValue.self, forKey: "result"))
        case "goBackToRoot": self = .goBackToRoot
        case "goBackTo": self = .goBackTo(try RouteMatcher(from: c))
        case "dismissAll": self = .dismissAll
        case "dismissJustFromPresented": self = .dismissJustFromPresented
        case "hide": self = .hide
        case "tabsSelectItem": self = .tabsSelectItem(try c.decode(String.self, forKey: "tab"))
        case "switchModel":
            self = .switchModel(
                try c.decode(ModelSpec.self, forKey: "model"),
                saveState: try c.decodeIfPresent(Bool.self, forKey: "saveState"),
                restoreState: try c.decodeIfPresent(Bool.self, forKey: "restoreState"))
        case "clearSavedState": self = .clearSavedState(screen: try c.decodeIfPresent(String.self, forKey: "screen"))
        case "openWindow":
            self = .openWindow(
                scene: try c.decode(String.self, forKey: "scene"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:])
        case "dismissWindow": self = .dismissWindow(id: try c.decodeIfPresent(String.self, forKey: "window"))
        case "openURL": self = .openURL(try c.decode(String.self, forKey: "url"))
        case "trigger":
            self = .trigger(
                name: try c.decode(String.self, forKey: "name"),
                payload: try c.decodeIfPresent(String.self, forKey: "payload") ?? "")
        case "sendMessage":
            self = .sendMessage(
                NavigationMessage(
                    try c.decode(String.self, forKey: "name"),
                    payload: try c.decodeIfPresent(String.self, forKey: "payload") ?? ""),
                to: try c.decodeIfPresent(MessageTarget.self, forKey: "to") ?? .current)
        case "sequence": self = .sequence(try c.decode([NavigationCommand].self, forKey: "commands"))
        case "setRoutes":
            let routes: [Route]
            do {
                routes = try c.decode([Route].self, forKey: "routes")
            } catch let error as RouteDecodingError {
                throw DecodingError.dataCorruptedError(forKey: "routes", in: c, debugDescription: error.description)
            }
            self = .setRoutes(routes, stack: try c.decodeIfPresent(ModelReference.self, forKey: "stack"))
        case "setParams":
            let params = try c.decodeIfPresent([String: String].self, forKey: "params")
            let title = try c.decodeIfPresent(String.self, forKey: "title")
            guard params != nil || title != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: "params", in: c, debugDescription: "setParams needs \"params\" or \"title\"")
            }
            self = .setParams(
                model: try Self.model(c), params: params, title: title,
                merge: try c.decodeIfPresent(Bool.self, forKey: "merge") ?? true)
        case "pushParams":
            self = .pushParams(model: try Self.model(c), params: try c.decode([String: String].self, forKey: "params"))
        case "bringToFront":
            let screen = try c.decodeIfPresent(String.self, forKey: "screen")
            switch (screen, try Self.model(c)) {
            case (let screen?, nil): self = .bringToFront(.screen(screen))
            case (nil, let model?): self = .bringToFront(.model(model))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: "screen", in: c,
                    debugDescription: "bringToFront needs exactly one of \"screen\", \"tag\" or \"model\"")
            }
        case "protect":
            self = .protect(
                model: try Self.model(c), reason: try c.decode(String.self, forKey: "reason"),
                dialog: try c.decodeIfPresent(String.self, forKey: "dialog").flatMap { $0.isEmpty ? nil : $0 },
                owner: try c.decodeIfPresent(String.self, forKey: "owner"))
        case "unprotect":
            self = .unprotect(model: try Self.model(c), owner: try c.decodeIfPresent(String.self, forKey: "owner"))
        // Appearance.
        case "setAppearance":
            self = .setAppearance(
                model: try Self.model(c), try c.decode(Appearance.self, forKey: "appearance"),
                merge: try c.decodeIfPresent(Bool.self, forKey: "merge") ?? true)
        case "setTabBarRule":
            self = .setTabBarRule(
                stack: try c.decodeIfPresent(ModelReference.self, forKey: "stack"),
                hiddenWhenNotRoot: try c.decode(Bool.self, forKey: "hiddenWhenNotRoot"),
                animated: try c.decodeIfPresent(Bool.self, forKey: "animated") ?? true)
        case "selectChild":
            self = .selectChild(
                container: try c.decodeIfPresent(ModelReference.self, forKey: "container"),
                child: try c.decode(ChildSelector.self, forKey: "child"))
        case "setColumnVisibility":
            guard let visibility = try c.decodeTagIfPresent(ColumnVisibility.self, forKey: "visibility") else {
                throw DecodingError.keyNotFound(
                    JSONKey("visibility"), DecodingError.Context(codingPath: c.codingPath, debugDescription: "no \"visibility\""))
            }
            self = .setColumnVisibility(
                container: try c.decodeIfPresent(ModelReference.self, forKey: "container"), visibility: visibility)
        case "transaction":
            let payload = try c.decode(JSONValue.self, forKey: "payload")
            guard case .object = payload else {
                throw DecodingError.dataCorruptedError(
                    forKey: "payload", in: c, debugDescription: "a transaction's payload must be a JSON object")
            }
            self = .transaction(payload)
        case "schedule": self = .schedule(try ScheduleSpec(from: c))
        case "cancelScheduled": self = .cancelScheduled(try c.decode(String.self, forKey: "id"))
        case "goForward": self = .goForward(count: try c.decodeInteger("count", in: Int.min...Int.max) ?? 1)
        // Renderer state: `"model": 0` is the window itself.
        case "setRendererState":
            let model: ModelReference? =
                (try? c.decode(Int.self, forKey: "model")) == 0 ? nil : try c.decode(ModelReference.self, forKey: "model")
            self = .setRendererState(model: model, try c.decode(RendererState.self, forKey: "state"))
        case "prepare":
            self = .prepare(try c.decode(ModelSpec.self, forKey: "model"))
        case "moveModel":
            // A window number (0: a new window); any other number is refused naming the key, never a trap.
            let toWindow = try c.decodeInteger(required: "toWindow", in: 0...Int(UInt32.max))
            self = .moveModel(
                model: try Self.model(c), toWindow: toWindow,
                placement: try c.decodeIfPresent(MovePlacement.self, forKey: "placement") ?? MovePlacement())
        default:
            if let meant = Spelling.closest(to: name, in: Self.names) {
                throw DecodingError.dataCorruptedError(
                    forKey: "command", in: c, debugDescription: "unknown command \"\(name)\"; did you mean \"\(meant)\"?")
            }
            throw c.unknownTag(name, key: "command", accepted: Self.names)
        }
    }

    /// The model of `setParams`/`bringToFront`: `"model"` (an id or `"tag:…"`) or `"tag"`, not both.
    private static func model(_ c: KeyedDecodingContainer<JSONKey>) throws -> ModelReference? {
        let model = try c.decodeIfPresent(ModelReference.self, forKey: "model")
        guard let tag = try c.decodeIfPresent(String.self, forKey: "tag") else { return model }
        guard model == nil else {
            throw DecodingError.dataCorruptedError(forKey: "tag", in: c, debugDescription: "give \"model\" or \"tag\", not both")
        }
        return .tag(tag)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(name, forKey: "command")
        switch self {
        case .stackAppend(let elements, let singleTop):
            try c.encode(elements, forKey: "models")
            if singleTop { try c.encode(true, forKey: "singleTop") }
        case .stackDropLast(let count): try c.encode(count, forKey: "count")
        case .pop(let count): if count != 1 { try c.encode(count, forKey: "count") }
        case .stackDropToRoot, .dismiss, .dismissJustFromPresented, .hide, .goBackToRoot, .dismissAll: break
        case .dismissReturning(let result): try c.encode(result, forKey: "result")
        case .goBack(let result): try c.encodeIfPresent(result, forKey: "result")
        case .goBackTo(let matcher):
            switch matcher {
            case .screen(let name, let params):
                try c.encode(name, forKey: "screen")
                switch params {
                case .equal(let value)?: try c.encode(value, forKey: "params")
                case .containing(let value)?: try c.encode(value, forKey: "paramsContaining")
                case nil: break
                }
            case .tag(let tag): try c.encode(tag, forKey: "tag")
            case .model(let reference): try c.encode(reference, forKey: "model")
            case .index(let index): try c.encode(index, forKey: "index")
            }
        case .stackSetRoot(let model, let clear):
            try c.encode(model, forKey: "model")
            try c.encode(clear, forKey: "clear")
        case .stackSetPath(let entries): try c.encode(entries, forKey: "path")
        case .present(let presentation): try c.encode(presentation, forKey: "presentation")
        case .show(let screen, let params, let transition):
            try c.encode(screen, forKey: "screen")
            if !params.isEmpty { try c.encode(params, forKey: "params") }
            try c.encodeIfPresent(transition, forKey: "transition")
        case .replace(let screen, let params, let transition):
            try c.encode(screen, forKey: "screen")
            if !params.isEmpty { try c.encode(params, forKey: "params") }
            try c.encodeIfPresent(transition, forKey: "transition")
        case .popTo(let screen, let params, let merge):
            try c.encode(screen, forKey: "screen")
            try c.encodeIfPresent(params, forKey: "params")
            if merge { try c.encode(merge, forKey: "merge") }
        case .presentOn(let presentation, let on, let replace):
            try c.encode(presentation, forKey: "presentation")
            try c.encode(on, forKey: "on")
            if replace { try c.encode(true, forKey: "replace") }
        case .tabsSelectItem(let tab): try c.encode(tab, forKey: "tab")
        case .switchModel(let model, let saveState, let restoreState):
            try c.encode(model, forKey: "model")
            try c.encodeIfPresent(saveState, forKey: "saveState")
            try c.encodeIfPresent(restoreState, forKey: "restoreState")
        case .clearSavedState(let screen): try c.encodeIfPresent(screen, forKey: "screen")
        case .openWindow(let scene, let params):
            try c.encode(scene, forKey: "scene")
            try c.encode(params, forKey: "params")
        case .dismissWindow(let id): try c.encodeIfPresent(id, forKey: "window")
        case .openURL(let url): try c.encode(url, forKey: "url")
        case .trigger(let name, let payload):
            try c.encode(name, forKey: "name")
            try c.encode(payload, forKey: "payload")
        case .sendMessage(let message, let target):
            try c.encode(message.name, forKey: "name")
            try c.encode(message.payload, forKey: "payload")
            try c.encode(target, forKey: "to")
        case .sequence(let commands): try c.encode(commands, forKey: "commands")
        case .setRoutes(let routes, let stack):
            try c.encode(routes, forKey: "routes")
            try c.encodeIfPresent(stack, forKey: "stack")
        case .setParams(let model, let params, let title, let merge):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encodeIfPresent(params, forKey: "params")
            try c.encodeIfPresent(title, forKey: "title")
            try c.encode(merge, forKey: "merge")
        case .pushParams(let model, let params):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(params, forKey: "params")
        case .bringToFront(.screen(let screen)): try c.encode(screen, forKey: "screen")
        case .bringToFront(.model(let model)): try c.encode(model, forKey: "model")
        case .protect(let model, let reason, let dialog, let owner):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(reason, forKey: "reason")
            try c.encodeIfPresent(dialog, forKey: "dialog")
            try c.encodeIfPresent(owner, forKey: "owner")
        case .unprotect(let model, let owner):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encodeIfPresent(owner, forKey: "owner")
        // Appearance.
        case .setAppearance(let model, let appearance, let merge):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(appearance, forKey: "appearance")
            if !merge { try c.encode(false, forKey: "merge") }
        case .setTabBarRule(let stack, let hidden, let animated):
            try c.encodeIfPresent(stack, forKey: "stack")
            try c.encode(hidden, forKey: "hiddenWhenNotRoot")
            try c.encode(animated, forKey: "animated")
        case .selectChild(let container, let child):
            try c.encodeIfPresent(container, forKey: "container")
            try c.encode(child, forKey: "child")
        case .setColumnVisibility(let container, let visibility):
            try c.encodeIfPresent(container, forKey: "container")
            try c.encode(visibility, forKey: "visibility")
        case .transaction(let payload): try c.encode(payload, forKey: "payload")
        case .schedule(let spec): try spec.encode(to: &c)
        case .cancelScheduled(let id): try c.encode(id, forKey: "id")
        // Back and forward.
        case .goForward(let count): if count != 1 { try c.encode(count, forKey: "count") }
        case .setRendererState(let model, let state):
            try c.encode(model ?? .id(ModelID(rawValue: 0)), forKey: "model")
            try c.encode(state, forKey: "state")
        case .prepare(let spec): try c.encode(spec, forKey: "model")
        case .moveModel(let model, let toWindow, let placement):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(toWindow, forKey: "toWindow")
            if placement != MovePlacement() { try c.encode(placement, forKey: "placement") }
        }
    }
}

/// One entry of a batch: a command, the model it runs from, and the animation flag.
///
/// `from == nil` means the window's active model at the moment this entry runs (after the earlier
/// entries of the same batch). In JSON the entry is the command object with optional `"from"` and
/// `"animated"` keys: `{"command":"dismiss","from":17,"animated":false}`.
public struct BatchCommand: Hashable, Sendable {
    /// The command.
    public var command: NavigationCommand
    /// The executing model (an id or a tag); `nil` = active model.
    public var from: ModelReference?
    /// Carried to renderers in the change event; has no effect on state.
    public var animated: Bool

    /// Creates a batch entry.
    public init(_ command: NavigationCommand, from: ModelID? = nil, animated: Bool = true) {
        self.command = command
        self.from = from.map(ModelReference.id)
        self.animated = animated
    }

    /// Creates a batch entry that runs from the model `reference` names (`.tag("inbox")`).
    public init(_ command: NavigationCommand, from reference: ModelReference, animated: Bool = true) {
        self.command = command
        self.from = reference
        self.animated = animated
    }
}

/// Which child ``NavigationCommand/selectChild(container:child:)`` selects: a zero-based index among the
/// container's children, or a model (by id or tag) that is one of them.
///
/// JSON: an integer is an index (`"child":1`), a string is a tag reference (`"child":"tag:drafts"`), and an
/// object names a model by id or tag (`"child":{"model":17}`, `"child":{"model":"tag:drafts"}`) — so an id is
/// never mistaken for an index.
public enum ChildSelector: Hashable, Sendable {
    /// The child at this zero-based index.
    case index(Int)
    /// This model, which must be one of the container's children.
    case model(ModelReference)
}

/// What ``NavigationCommand/bringToFront(_:)`` moves: the topmost element of the executing model's stack showing
/// a screen, or a given model (by id or tag) — the element of its stack it is or sits in.
public enum BringToFrontTarget: Hashable, Sendable {
    /// The topmost element of the stack (walk-up from the executing model) whose screen is this.
    case screen(String)
    /// This model, or its nearest ancestor that is a stack element, in the stack holding it.
    case model(ModelReference)
}
