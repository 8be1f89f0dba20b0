/// The content cost of models: an upper estimate, in bytes, of what a model adds to every message that
/// describes it (its JSON in `GetState`, its route, its line in the debug tree).
///
/// A model's cost is the JSON-escaped size of its own strings plus ``modelOverhead``; a dialog counts
/// its actions' commands too. The window keeps the sum (``NavigationWindow/contentCost``), so bounding
/// it (``GraphLimits/maxContentCost``) bounds every message about the window. Computing a cost is
/// linear in the size of what is created, never in the size of the window.
enum ContentCost {
    /// Bytes counted per model for its structure: id, parent, attachment, kind and the JSON keys.
    static let modelOverhead = 192

    /// The size of `text` as a JSON string literal (RFC 8259 escaping, as ``JSONString/literal(_:)``).
    static func of(_ text: String) -> Int {
        var size = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                size += 2
            case ..<0x20: size += 6
            default: size += 1
            }
        }
        return size
    }

    static func of(_ params: [String: String]) -> Int {
        params.reduce(2) { $0 + of($1.key) + of($1.value) + 2 }
    }

    static func of(_ content: DialogContent) -> Int {
        var size = of(content.title) + (content.message.map(of) ?? 0)
        for action in content.actions {
            size += of(action.id) + of(action.title) + 32 + action.commands.reduce(0) { $0 + of($1) }
        }
        return size
    }

    /// A spec and its whole subtree, as the commands that carry it would store it.
    static func of(_ spec: ModelSpec) -> Int {
        var size = modelOverhead + of(spec.screen) + of(spec.params) + (spec.title.map(of) ?? 0) + (spec.tag.map(of) ?? 0)
        if let presented = spec.presented { size += of(presented.model) }
        switch spec.content {
        case .screen: break
        case .stack(let path, _): size += path.reduce(0) { $0 + of($1.model) + ($1.transition.map(of) ?? 0) }
        case .tabs(let tabs, _): size += tabs.reduce(0) { $0 + of($1.id) + of($1.title) + ($1.icon.map(of) ?? 0) + of($1.model) }
        case .switched(let child): size += of(child)
        case .alert(let content), .confirmationDialog(let content): size += of(content)
        case .custom(let kind, let children, _): size += of(kind) + children.reduce(0) { $0 + of($1) }
        }
        return size
    }

    /// A command as a dialog action stores it.
    static func of(_ command: NavigationCommand) -> Int {
        let base = 48
        switch command {
        case .stackAppend(let elements, _): return base + elements.reduce(0) { $0 + of($1.model) }
        case .stackSetRoot(let spec, _), .switchModel(let spec, _, _): return base + of(spec)
        case .clearSavedState(let screen): return base + (screen.map(of) ?? 0)
        case .stackSetPath(let entries):
            return entries.reduce(base) { total, entry in
                switch entry {
                case .existing(_, let transition): total + 24 + (transition.map(of) ?? 0)
                case .new(let element): total + of(element.model)
                }
            }
        case .present(let presentation): return base + of(presentation.model) + (presentation.transition.map(of) ?? 0)
        case .show(let screen, let params, let transition): return base + of(screen) + of(params) + (transition.map(of) ?? 0)
        case .popTo(let screen, let params, _): return base + of(screen) + (params.map(of) ?? 0)
        case .presentOn(let presentation, let on, _):
            return base + 24 + of(presentation.model) + (presentation.transition.map(of) ?? 0) + of(on)
        case .tabsSelectItem(let tab): return base + of(tab)
        case .openWindow(let scene, let params): return base + of(scene) + of(params)
        case .dismissWindow(let id): return base + (id.map(of) ?? 0)
        case .openURL(let url): return base + of(url)
        case .trigger(let name, let payload): return base + of(name) + of(payload)
        case .sendMessage(let message, _): return base + of(message.name) + of(message.payload)
        case .sequence(let commands): return commands.reduce(base) { $0 + of($1) }
        case .setRoutes(let routes, _): return routes.reduce(base) { $0 + 24 + of($1.screen) + of($1.params) }
        case .setParams(let model, let params, let title, _):
            return base + (model.map(of) ?? 0) + (params.map(of) ?? 0) + (title.map(of) ?? 0)
        case .pushParams(let model, let params): return base + (model.map(of) ?? 0) + of(params)
        case .bringToFront(.screen(let screen)): return base + of(screen)
        case .bringToFront(.model(let model)): return base + of(model)
        case .protect(let model, let reason, let dialog, let owner):
            return base + (model.map(of) ?? 0) + of(reason) + (dialog.map(of) ?? 0) + (owner.map(of) ?? 0)
        case .unprotect(let model, let owner): return base + (model.map(of) ?? 0) + (owner.map(of) ?? 0)
        case .selectChild(let container, .model(let child)): return base + (container.map(of) ?? 0) + of(child)
        case .selectChild(let container, .index): return base + (container.map(of) ?? 0)
        case .setColumnVisibility(let container, _): return base + (container.map(of) ?? 0)
        case .schedule(let spec): return base + (spec.id.map(of) ?? 0) + spec.commands.reduce(0) { $0 + 24 + of($1.command) }
        case .cancelScheduled(let id): return base + of(id)
        case .setRendererState(let model, let state): return base + (model.map(of) ?? 0) + state.cost
        case .prepare(let spec): return base + of(spec)
        case .moveModel(let model, _, let placement):
            return base + (model.map(of) ?? 0) + of(placement.tab ?? "") + of(placement.scene ?? "")
        case .dismissReturning(let result), .goBack(result: .some(let result)), .transaction(let result):
            return base + NavigationWindow.resultText(result).utf8.count
        case .goBackTo(.screen(let name, nil)): return base + of(name)
        case .goBackTo(.screen(let name, .equal(let params)?)), .goBackTo(.screen(let name, .containing(let params)?)):
            return base + of(name) + of(params)
        case .setAppearance(let model, _, _): return base + 32 + (model.map(of) ?? 0)
        case .setTabBarRule(let stack, _, _): return base + (stack.map(of) ?? 0)
        case .stackDropLast, .pop, .stackDropToRoot, .dismiss, .dismissJustFromPresented, .hide, .goBack, .goBackToRoot,
            .goBackTo, .dismissAll, .goForward:
            return base
        }
    }

    /// A scheduled batch as the window lists it.
    static func of(_ batch: ScheduledBatch) -> Int {
        // The author (a bus name, at most 255 bytes, one per batch) is not counted: disowning changes no cost.
        64 + of(batch.id) + batch.commands.reduce(0) { $0 + 24 + of($1.command) }
    }

    static func of(_ reference: ModelReference) -> Int {
        switch reference {
        case .id: 24
        case .tag(let tag): of(tag) + 4
        }
    }

    /// One node's own content (its children have their own cost).
    static func of(node: Node) -> Int {
        var size = modelOverhead + of(node.screen) + of(node.params) + (node.title.map(of) ?? 0) + (node.tag.map(of) ?? 0)
        if let rendererState = node.rendererState { size += rendererState.cost }
        for params in node.paramsHistory { size += 16 + of(params) }
        switch node.kind {
        case .stack: size += node.path.reduce(0) { $0 + 16 + ($1.transition.map(of) ?? 0) }
        case .tabs: size += node.tabs.reduce(0) { $0 + 16 + of($1.id) + of($1.title) + ($1.icon.map(of) ?? 0) }
        case .alert, .confirmationDialog: size += node.dialog.map(of) ?? 0
        case .custom(let kind): size += of(kind) + 16 * node.customChildren.count
        case .screen, .switched: break
        }
        return size
    }
}
