#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore
import NavigationRouting

/// Checks a decoded manifest document; the first problem found is thrown with its key path.
struct ManifestValidator {
    struct Result {
        var router: DeepLinkRouter?
        var routeConditions: [String: DeepLinkEntryCondition]
        var defaultScene: String
    }

    static let builtInPresentationKinds: Set<String> = [
        "sheet", "cover", "fullScreenCover", "alert", "confirmationDialog", "dialog",
    ]

    let document: ManifestDocument
    let screens: [String: ScreenDeclaration]
    let sceneNames: Set<String>
    let stateNames: Set<String>
    let presentationKinds: Set<String>

    init(_ document: ManifestDocument) {
        self.document = document
        screens = Dictionary(document.screens.map { ($0.name, $0) }) { first, _ in first }
        sceneNames = Set(document.scenes.map(\.name))
        stateNames = Set(document.scenes.flatMap(\.states.keys))
        presentationKinds = Set(document.presentationKinds)
    }

    func validate() throws(ManifestError) -> Result {
        guard document.format == Manifest.formatVersion else {
            throw .unsupportedFormat(key: "format", format: document.format)
        }
        try ApplicationID.validate(document.id, key: "id")
        try validateSizes()
        try validateScreens()
        try validatePresentationKinds()
        try checkTransitions()
        let defaultScene = try validateScenes()
        for name in document.dialogs.keys.sorted() {
            guard !name.isEmpty else { throw .emptyName(key: "dialogs") }
            if let dialog = document.dialogs[name] {
                try checkDialog(dialog.content, at: "dialogs.\(name)")
            }
        }
        let (router, routeConditions) = try validateDeepLinks()
        try validateGuards()
        try validateMigration()
        try validateAnnouncements()
        try validateFunnels()
        return Result(router: router, routeConditions: routeConditions, defaultScene: defaultScene)
    }

    /// `funnels`: at most 32, each of 2–16 declared screens (any names when screens are free-form).
    private func validateFunnels() throws(ManifestError) {
        guard document.funnels.count <= 32 else {
            throw .invalidValue(key: "funnels", detail: "\(document.funnels.count) funnels; at most 32")
        }
        let declared = Set(document.screens.map(\.name))
        for (name, steps) in document.funnels.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty else { throw .emptyName(key: "funnels") }
            guard (2...16).contains(steps.count) else {
                throw .invalidValue(key: "funnels.\(name)", detail: "\(steps.count) steps; a funnel has 2 to 16")
            }
            for (index, step) in steps.enumerated() where !document.freeFormScreens && !declared.contains(step) {
                throw .invalidValue(key: "funnels.\(name)[\(index)]", detail: "'\(step)' is not a declared screen")
            }
        }
    }

    /// `locale`, `announcements` and the screens' `announce`: locales are language tags (`en`, `fr-CA`), phrases are of
    /// the known kinds, templates close every `{`.
    private func validateAnnouncements() throws(ManifestError) {
        if let locale = document.locale, !Announcements.isLocale(locale) {
            throw .invalidValue(key: "locale", detail: "'\(locale)' is not a language tag (en, fr, pt-BR)")
        }
        for (locale, phrases) in document.announcements.sorted(by: { $0.key < $1.key }) {
            guard Announcements.isLocale(locale) else {
                throw .invalidValue(key: "announcements.\(locale)", detail: "'\(locale)' is not a language tag (en, fr, pt-BR)")
            }
            for (kind, template) in phrases.sorted(by: { $0.key < $1.key }) {
                guard Announcements.kinds.contains(kind) else {
                    throw .invalidValue(
                        key: "announcements.\(locale).\(kind)",
                        detail: "unknown kind '\(kind)' (known: \(Announcements.kinds.joined(separator: ", ")))")
                }
                guard !template.allSatisfy(\.isWhitespace) else {
                    throw .invalidValue(key: "announcements.\(locale).\(kind)", detail: "an empty template says nothing")
                }
                if let problem = Announcements.templateProblem(template) {
                    throw .invalidValue(key: "announcements.\(locale).\(kind)", detail: problem)
                }
            }
        }
        for (index, screen) in document.screens.enumerated() {
            for (locale, template) in (screen.announce ?? [:]).sorted(by: { $0.key < $1.key }) {
                let key = "screens[\(index)].announce" + (locale.isEmpty ? "" : ".\(locale)")
                guard locale.isEmpty || Announcements.isLocale(locale) else {
                    throw .invalidValue(key: key, detail: "'\(locale)' is not a language tag (en, fr, pt-BR)")
                }
                guard !template.allSatisfy(\.isWhitespace) else { throw .invalidValue(key: key, detail: "an empty template says nothing") }
                if let problem = Announcements.templateProblem(template) { throw .invalidValue(key: key, detail: problem) }
            }
        }
    }

    /// `renamed` and `fallback`: an old name is not a declared screen (it would be two), a new one is (unless screens are
    /// free-form), and a fallback needs no parameter (its models are made without any).
    private func validateMigration() throws(ManifestError) {
        let declared = Set(document.screens.map(\.name))
        for (field, map) in [("renamed", document.renamed), ("fallback", document.fallback)] {
            for (old, new) in map.sorted(by: { $0.key < $1.key }) {
                let key = "\(field).\(old)"
                guard !old.isEmpty, !new.isEmpty else { throw .emptyName(key: key) }
                guard !declared.contains(old) else {
                    throw .invalidValue(key: key, detail: "'\(old)' is a declared screen; only a screen no longer declared is \(field)")
                }
                guard document.freeFormScreens || declared.contains(new) else { throw .unknownScreen(key: key, screen: new) }
                if field == "fallback", let screen = document.screens.first(where: { $0.name == new }), let first = screen.required.first {
                    throw .missingParameter(key: key, screen: new, parameter: first)
                }
            }
        }
        for old in document.renamed.keys.sorted() where document.fallback[old] != nil {
            throw .invalidValue(key: "fallback.\(old)", detail: "'\(old)' is renamed already")
        }
    }

    private func validateScreens() throws(ManifestError) {
        var seen: Set<String> = []
        for (index, screen) in document.screens.enumerated() {
            let key = "screens[\(index)]"
            guard !screen.name.isEmpty else { throw .emptyName(key: "\(key).name") }
            guard seen.insert(screen.name).inserted else { throw .duplicateName(key: "\(key).name", name: screen.name) }
            var params: Set<String> = []
            for (field, names) in [("required", screen.required), ("optional", screen.optional)] {
                for (position, name) in names.enumerated() {
                    guard !name.isEmpty else { throw .emptyName(key: "\(key).\(field)[\(position)]") }
                    guard params.insert(name).inserted else {
                        throw .duplicateName(key: "\(key).\(field)[\(position)]", name: name)
                    }
                }
            }
            var identity: Set<String> = []
            for (position, name) in (screen.identity ?? []).enumerated() {
                guard params.contains(name) else {
                    throw .unknownParameter(key: "\(key).identity[\(position)]", screen: screen.name, parameter: name)
                }
                guard identity.insert(name).inserted else { throw .duplicateName(key: "\(key).identity[\(position)]", name: name) }
            }
            for (name, value) in (screen.initialParams ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard params.contains(name) else {
                    throw .unknownParameter(key: "\(key).initialParams.\(name)", screen: screen.name, parameter: name)
                }
                try checkText(value, at: "\(key).initialParams.\(name)")
            }
            try validateEntryGuard(of: screen, at: key)
            try validateHandlers(of: screen, at: key)
        }
    }

    /// The most commands one message handler may hold.
    static let maximumHandlerCommands = 16

    /// A screen's `handlers`: non-empty message names, each with 1 … ``maximumHandlerCommands``
    /// valid commands, none of them `schedule` (a handler runs again when the journal is replayed, and a deadline
    /// computed then would differ).
    private func validateHandlers(of screen: ScreenDeclaration, at key: String) throws(ManifestError) {
        guard let handlers = screen.handlers else { return }
        for name in handlers.keys.sorted() {
            let handlerKey = "\(key).handlers.\(name)"
            guard !name.isEmpty else { throw .emptyName(key: "\(key).handlers") }
            let commands = handlers[name] ?? []
            guard !commands.isEmpty, commands.count <= Self.maximumHandlerCommands else {
                throw .invalidValue(
                    key: handlerKey, detail: "a handler holds 1 to \(Self.maximumHandlerCommands) commands, not \(commands.count)")
            }
            for (position, command) in commands.enumerated() {
                guard !command.schedules else {
                    throw .invalidValue(key: "\(handlerKey)[\(position)]", detail: "a handler cannot schedule commands")
                }
                try checkCommand(command, at: "\(handlerKey)[\(position)]")
            }
        }
    }

    /// The most commands a screen's `redirect` may hold.
    static let maximumRedirectCommands = 16

    /// A screen's `requires` names a state some scene declares; its `redirect` holds valid commands, at most
    /// ``maximumRedirectCommands``, and never needs `requires` without it (a redirect only follows one).
    private func validateEntryGuard(of screen: ScreenDeclaration, at key: String) throws(ManifestError) {
        if let requirement = screen.requires {
            guard !requirement.state.isEmpty else { throw .emptyName(key: "\(key).requires.state") }
            guard stateNames.contains(requirement.state) else {
                throw .unknownState(key: "\(key).requires.state", state: requirement.state)
            }
        }
        guard let redirect = screen.redirect else { return }
        guard screen.requires != nil else {
            throw .invalidValue(key: "\(key).redirect", detail: "a redirect needs an entry condition ('requires')")
        }
        try checkRedirect(redirect, at: "\(key).redirect")
    }

    /// A redirect (a screen's or a deep-link route's) holds at most ``maximumRedirectCommands`` valid commands,
    /// none with `from`.
    func checkRedirect(_ redirect: [BatchCommand], at key: String) throws(ManifestError) {
        guard redirect.count <= Self.maximumRedirectCommands else {
            throw .invalidValue(
                key: key,
                detail: "a redirect holds at most \(Self.maximumRedirectCommands) commands, not \(redirect.count)")
        }
        for (position, entry) in redirect.enumerated() {
            guard entry.from == nil else {
                throw .invalidValue(key: "\(key)[\(position)].from", detail: "a redirect runs from the active model")
            }
            try checkCommand(entry.command, at: "\(key)[\(position)]")
        }
    }

    private func validatePresentationKinds() throws(ManifestError) {
        var seen: Set<String> = []
        for (index, kind) in document.presentationKinds.enumerated() {
            let key = "presentationKinds[\(index)]"
            guard !kind.isEmpty else { throw .emptyName(key: key) }
            guard !Self.builtInPresentationKinds.contains(kind), !kind.contains("+"), seen.insert(kind).inserted else {
                throw .duplicateName(key: key, name: kind)
            }
        }
    }

    private func validateScenes() throws(ManifestError) -> String {
        var seen: Set<String> = []
        var defaults: [(key: String, name: String)] = []
        for (index, scene) in document.scenes.enumerated() {
            let key = "scenes[\(index)]"
            guard !scene.name.isEmpty else { throw .emptyName(key: "\(key).name") }
            guard seen.insert(scene.name).inserted else { throw .duplicateName(key: "\(key).name", name: scene.name) }
            if scene.isDefault { defaults.append(("\(key).default", scene.name)) }
            try validateScene(scene, at: key)
        }
        guard let first = defaults.first else { throw .noDefaultScene }
        guard defaults.count == 1 else { throw .severalDefaultScenes(keys: defaults.map(\.key)) }
        return first.name
    }

    private func validateScene(_ scene: SceneDeclaration, at key: String) throws(ManifestError) {
        for name in scene.states.keys.sorted() {
            let stateKey = "\(key).states.\(name)"
            guard !name.isEmpty else { throw .emptyName(key: "\(key).states") }
            guard let spec = scene.states[name] else { continue }
            if spec.kind == .screen, spec.screen != name {
                throw .invalidStructure(
                    key: "\(stateKey).screen",
                    detail: "a plain-screen state must show the screen named like the state ('\(name)')")
            }
            try checkStructure(scene.state(name) ?? spec, at: stateKey)
        }
        for (field, state) in [("initialState", scene.initialState), ("deepLinkState", scene.deepLinkState)] {
            if let state, scene.states[state] == nil { throw .unknownState(key: "\(key).\(field)", state: state) }
        }
        var savedSeen: Set<String> = []
        for (index, state) in scene.savedStates.enumerated() {
            guard scene.states[state] != nil else { throw .unknownState(key: "\(key).savedStates[\(index)]", state: state) }
            guard savedSeen.insert(state).inserted else {
                throw .invalidValue(key: "\(key).savedStates[\(index)]", detail: "'\(state)' is listed twice")
            }
        }
        // A kept state keeps its tags while another state is shown, so a tag it shares with another state would
        // make switching to that state fail (`DuplicateTag`): refused here, naming both states.
        for saved in scene.savedStates.sorted() {
            guard let keptSpec = scene.states[saved] else { continue }
            let kept = Self.tags(in: keptSpec)
            guard !kept.isEmpty else { continue }
            for other in scene.states.keys.sorted() where other != saved {
                guard let otherSpec = scene.states[other],
                    let shared = Self.tags(in: otherSpec).intersection(kept).sorted().first
                else { continue }
                throw .invalidValue(
                    key: "\(key).states.\(other)",
                    detail: "the tag '\(shared)' is also in the saved state '\(saved)', which keeps it while '\(other)' is shown")
            }
        }
        switch (scene.root, scene.initialState) {
        case (nil, nil):
            throw .invalidValue(key: "\(key).root", detail: "a scene needs a root or an initialState")
        case (.some, .some):
            throw .invalidValue(key: "\(key).initialState", detail: "give either root or initialState, not both")
        case (.some(let root), nil):
            try checkStructure(root, at: "\(key).root")
        case (nil, .some):
            break
        }
    }

    /// Checks names and parameters, then lets NavigationCore try to build it.
    private func checkStructure(_ spec: ModelSpec, at key: String) throws(ManifestError) {
        try check(spec, at: key, entry: true)
        do {
            let configuration = WindowConfiguration(customPresentationKinds: presentationKinds, limits: Self.limits)
            _ = try NavigationWindow(root: spec, configuration: configuration)
        } catch {
            throw .invalidStructure(key: key, detail: error.message)
        }
    }

    /// Every tag a spec's structure carries (its presentations included).
    static func tags(in spec: ModelSpec) -> Set<String> {
        var result: Set<String> = []
        var pending = [spec]
        while let current = pending.popLast() {
            if let tag = current.tag { result.insert(tag) }
            switch current.content {
            case .screen, .alert, .confirmationDialog: break
            case .stack(let path, _): pending += path.map(\.model)
            case .tabs(let tabs, _): pending += tabs.map(\.model)
            case .switched(let model): pending.append(model)
            case .custom(_, let children, _): pending += children
            }
            if let presented = current.presented { pending.append(presented.model) }
        }
        return result
    }

    /// Walks a model spec; `entry` marks the path to the entry screen, whose required parameters may
    /// arrive later (OpenWindow or SwitchModel parameters).
    func check(_ spec: ModelSpec, at key: String, entry: Bool) throws(ManifestError) {
        switch spec.content {
        case .screen:
            try checkScreen(spec.screen, params: spec.params.keys, at: key, entry: entry)
        case .stack(let path, _):
            for (index, element) in path.enumerated() {
                try check(element.model, at: "\(key).path[\(index)]", entry: entry && index == 0)
            }
        case .tabs(let tabs, let selected):
            let entryIndex = tabs.firstIndex { $0.id == selected } ?? 0
            for (index, tab) in tabs.enumerated() {
                try check(tab.model, at: "\(key).tabs[\(index)].model", entry: entry && index == entryIndex)
            }
        case .switched(let model):
            try check(model, at: "\(key).model", entry: entry)
        case .custom(_, let children, _):
            for (index, child) in children.enumerated() {
                try check(child, at: "\(key).children[\(index)]", entry: entry && index == 0)
            }
        case .alert(let content), .confirmationDialog(let content):
            try checkDialog(content, at: key)
        }
        if let presented = spec.presented { try checkPresentation(presented, at: "\(key).presented") }
    }

    func checkScreen(
        _ screen: String, params: some Collection<String>, at key: String, entry: Bool
    ) throws(ManifestError) {
        guard let declaration = screens[screen] else { throw .unknownScreen(key: key, screen: screen) }
        switch declaration.problem(with: params, ignoringMissing: entry) {
        case .missing(let name): throw .missingParameter(key: key, screen: screen, parameter: name)
        case .unknown(let name): throw .unknownParameter(key: "\(key).params.\(name)", screen: screen, parameter: name)
        case nil: break
        }
    }

    private func checkPresentation(_ presentation: PresentationSpec, at key: String) throws(ManifestError) {
        if case .custom(let name) = presentation.style, !presentationKinds.contains(name), !presentation.isBuiltInBrowser {
            throw .unknownPresentationKind(key: "\(key).name", kind: name)
        }
        switch presentation.model.content {
        case .alert(let content), .confirmationDialog(let content): try checkDialog(content, at: key)
        default: try check(presentation.model, at: "\(key).model", entry: false)
        }
    }

    private func checkDialog(_ content: DialogContent, at key: String) throws(ManifestError) {
        var ids: Set<String> = []
        var reapplying = 0
        for (index, action) in content.actions.enumerated() {
            let actionKey = "\(key).actions[\(index)]"
            if action.reapply {
                reapplying += 1
                guard reapplying == 1 else {
                    throw .invalidValue(key: "\(actionKey).reapply", detail: "at most one action of a dialog may re-apply")
                }
            }
            guard !action.id.isEmpty else { throw .emptyName(key: "\(actionKey).id") }
            try checkName(action.id, at: "\(actionKey).id")
            guard ids.insert(action.id).inserted else { throw .duplicateName(key: "\(actionKey).id", name: action.id) }
            for (position, command) in action.commands.enumerated() {
                guard !command.schedules else {
                    throw .invalidValue(key: "\(actionKey).commands[\(position)]", detail: "a dialog action cannot schedule commands")
                }
                try checkCommand(command, at: "\(actionKey).commands[\(position)]")
            }
        }
    }

    private func checkCommand(_ command: NavigationCommand, at key: String) throws(ManifestError) {
        switch command {
        case .protect, .unprotect:
            // A mark belongs to the client that set it and only that client may remove it (Docs/guards.md); the
            // manifest's commands run for whichever change triggered them, so they can do neither.
            throw .invalidValue(
                key: key, detail: "the manifest's commands cannot protect or unprotect: a mark belongs to the client that set it")
        case .moveModel:
            // It changes two windows and runs only alone in a batch a client sends.
            throw .invalidValue(
                key: key, detail: "the manifest's commands cannot move models between windows (moveModel runs alone in a client's batch)")
        case .switchModel(let model, _, _) where model.kind == .screen && stateNames.contains(model.screen):
            // A saved state's name: the container brings the kept branch back.
            return
        default:
            break
        }
        // Everything else a command names, whatever the command (NavigationCommand.named).
        for named in command.named {
            switch named {
            case .spec(let model, let at): try check(model, at: Self.key(key, at), entry: false)
            case .screen(let screen, let params, let at): try check(.screen(screen, params: params), at: Self.key(key, at), entry: false)
            case .presentation(let presentation, let at): try checkPresentation(presentation, at: Self.key(key, at))
            case .scene(let scene, let at):
                guard sceneNames.contains(scene) else { throw .unknownScene(key: Self.key(key, at), scene: scene) }
            case .command(let inner, let at): try checkCommand(inner, at: Self.key(key, at))
            }
        }
    }

    /// `key.at`, or `key` when `at` is empty.
    private static func key(_ key: String, _ at: String) -> String {
        at.isEmpty ? key : key + "." + at
    }
}
