import NavigationCore
import NavigationRouting

/// Turning manifest names into NavigationCore values: states, dialogs, presentation kinds.
extension Session {
    /// The presentation for Window1 `Present(kind, screen, params)`.
    ///
    /// Kinds: `sheet`, `cover` (or `fullScreenCover`), a declared custom kind, each optionally with
    /// `+stack` (a stack whose root is the screen); `browser` (unless the manifest declares its own) presents the
    /// built-in browser with `screen` as its URL; `alert` or `confirmationDialog` present the dialog
    /// the manifest declares under the name `screen` (its actions' commands expanded like a batch's).
    ///
    /// ```swift
    /// let logout = try session.presentation(kind: "confirmationDialog", screen: "logout", in: 1)
    /// try session.execute(window: 1, command: .present(logout))
    /// ```
    /// - Throws: ``SessionError/unknownDialog(_:)``, ``SessionError/navigation(_:)`` with
    ///   ``NavigationError/unknownPresentationKind(_:)``, ``SessionError/unknownWindow(_:)``.
    public func presentation(
        kind: String, screen: String, params: [String: String] = [:], sourceID: String? = nil,
        in number: WindowNumber
    ) throws(SessionError) -> PresentationSpec {
        let scene = manifest.scene(try window(number).scene)
        if kind == "alert" || kind == "confirmationDialog" {
            guard let dialog = manifest.dialogs[screen] else { throw .unknownDialog(screen) }
            // A declared dialog keeps its kind: a confirmation dialog shown as an alert loses its anchor.
            guard dialog.kind.rawValue == kind else {
                throw .invalidArguments("dialog '\(screen)' is declared as \(dialog.kind.rawValue), not \(kind)")
            }
            var content = dialog.content
            content.actions = content.actions.map { action in
                var action = action
                action.commands = action.commands.map { expand($0, scene: scene) }
                return action
            }
            return kind == "alert" ? .alert(content) : .confirmationDialog(content, sourceID: sourceID)
        }
        // The built-in browser: the screen argument is the URL.
        if kind == PresentationSpec.browserKind && !manifest.presentationKinds.contains(kind) {
            if let problem = PresentationSpec.browserURLProblem(screen) {
                throw .navigation(.invalidBrowserURL(screen, reason: problem))
            }
            return .browser(url: screen)
        }
        let stacked = kind.hasSuffix("+stack")
        let base = stacked ? String(kind.dropLast("+stack".count)) : kind
        let model: ModelSpec = stacked ? .stacked(.screen(screen, params: params)) : .screen(screen, params: params)
        switch base {
        case "sheet": return .sheet(model)
        case "cover", "fullScreenCover": return .fullScreenCover(model)
        case let custom where manifest.presentationKinds.contains(custom): return .custom(custom, model)
        default: throw .navigation(.unknownPresentationKind(kind))
        }
    }

    /// The batch entry with its command expanded for `scene` (see ``expand(_:scene:)-(NavigationCommand,_)``).
    func expand(_ entry: BatchCommand, scene: SceneDeclaration?) -> BatchCommand {
        var entry = entry
        entry.command = expand(entry.command, scene: scene)
        return entry
    }

    /// `switchModel` of a plain screen named like a state of `scene` becomes that state's structure
    /// (the screen's params go to the state's entry screen); sequences, and dialog actions inside
    /// presentations, are expanded recursively.
    func expand(_ command: NavigationCommand, scene: SceneDeclaration?) -> NavigationCommand {
        switch command {
        case .switchModel(let spec, let saveState, let restoreState):
            guard spec.kind == .screen, spec.presented == nil, let state = scene?.state(spec.screen) else {
                return command
            }
            return .switchModel(state.mergingEntryParams(spec.params), saveState: saveState, restoreState: restoreState)
        case .sequence(let commands):
            return .sequence(commands.map { expand($0, scene: scene) })
        case .schedule(var spec):
            spec.commands = spec.commands.map { expand($0, scene: scene) }
            return .schedule(spec)
        case .present(let presentation):
            return .present(expand(presentation, scene: scene))
        case .presentOn(let presentation, let on, let replace):
            return .presentOn(expand(presentation, scene: scene), on: on, replace: replace)
        default:
            return command
        }
    }

    private func expand(_ presentation: PresentationSpec, scene: SceneDeclaration?) -> PresentationSpec {
        var presentation = presentation
        switch presentation.model.content {
        case .alert(var content):
            content.actions = content.actions.map { expand($0, scene: scene) }
            presentation.model.content = .alert(content)
        case .confirmationDialog(var content):
            content.actions = content.actions.map { expand($0, scene: scene) }
            presentation.model.content = .confirmationDialog(content)
        default:
            break
        }
        return presentation
    }

    private func expand(_ action: DialogAction, scene: SceneDeclaration?) -> DialogAction {
        var action = action
        action.commands = action.commands.map { expand($0, scene: scene) }
        return action
    }

    /// The custom presentation kinds a route's style may name here: the manifest's and the built-in `browser`.
    public var routeKinds: Set<String> { Set(manifest.presentationKinds).union([PresentationSpec.browserKind]) }

    /// Plans route states between two JSON route lists (Session1 `Plan`), as JSON.
    ///
    /// Bounded before any work: each JSON text by ``SessionLimits/maxJSONBytes``, each list by
    /// ``SessionLimits/maxPlanRoutes`` and the plan by ``SessionLimits/maxPlannedRouteEntries``.
    /// - Parameter kinds: the custom presentation kinds a route's style may name (a manifest's `presentationKinds`
    ///   and the built-in `browser`); `nil` (a planner without a manifest, `navsessionctl plan`): any kind name.
    /// - Throws: ``SessionError/invalidArguments(_:)`` naming the argument and the element (also for a style that
    ///   is none of `push`, `sheet`, `cover` and `kinds`); ``SessionError/limitsExceeded(_:)``.
    public static func plan(
        fromJSON: String, toJSON: String, capabilities: RendererCapabilities, limits: SessionLimits = SessionLimits(),
        kinds: Set<String>? = nil
    ) throws(SessionError) -> String {
        for (name, text) in [("from_routes", fromJSON), ("to_routes", toJSON)] where text.utf8.count > limits.maxJSONBytes {
            throw .limitsExceeded("\(name) is \(text.utf8.count) bytes; at most \(limits.maxJSONBytes)")
        }
        let from: [Route]
        let to: [Route]
        do {
            from = try Route.list(fromJSON: fromJSON)
        } catch {
            throw .invalidArguments("from_routes: \(error.description)")
        }
        do {
            to = try Route.list(fromJSON: toJSON)
        } catch {
            throw .invalidArguments("to_routes: \(error.description)")
        }
        for (name, list) in [("from_routes", from), ("to_routes", to)] where list.count > limits.maxPlanRoutes {
            throw .limitsExceeded("\(name) has \(list.count) routes; at most \(limits.maxPlanRoutes)")
        }
        if let kinds {
            for (name, list) in [("from_routes", from), ("to_routes", to)] {
                for (index, route) in list.enumerated() {
                    guard case .custom(let kind) = route.style, !kinds.contains(kind) else { continue }
                    throw .invalidArguments(
                        "\(name): element \(index): unknown style '\(kind)' (expected push, sheet, cover or a presentation "
                            + "kind: \(kinds.sorted().joined(separator: ", ")))")
                }
            }
        }
        let bound = StepPlanner.routeEntryBound(from: from, to: to, capabilities: capabilities.planner)
        guard bound <= limits.maxPlannedRouteEntries else {
            throw .limitsExceeded(
                "the plan could hold \(bound) route entries; at most \(limits.maxPlannedRouteEntries)")
        }
        return Route.json(states: StepPlanner.steps(from: from, to: to, capabilities: capabilities.planner))
    }

    /// Reads the routes of Window1 `SetRoutes` (`routes_json`), bounded by ``SessionLimits/maxJSONBytes`` before
    /// it is parsed; the window bounds the count and checks every route when the change runs.
    ///
    /// - Throws: ``SessionError/limitsExceeded(_:)`` for a text over the bound; ``SessionError/invalidArguments(_:)``
    ///   naming the element at fault (`routes_json: element 1: missing 'screen'`).
    public static func routes(fromJSON json: String, limits: SessionLimits = SessionLimits()) throws(SessionError) -> [Route] {
        guard json.utf8.count <= limits.maxJSONBytes else {
            throw .limitsExceeded("routes_json is \(json.utf8.count) bytes; at most \(limits.maxJSONBytes)")
        }
        do {
            return try Route.list(fromJSON: json)
        } catch {
            throw .invalidArguments("routes_json: \(error.description)")
        }
    }
}
