/// The screens an application declares, so a misspelt screen (`mesage`) is refused where it enters the
/// graph — through any command, batch, deep link or dialog action — instead of being shown as a blank page.
///
/// Only plain screens are checked: containers (stacks, tabs, switched, custom) are named after their role
/// and dialogs after their kind.
public struct ScreenCatalog: Hashable, Sendable {
    /// The parameters one screen takes.
    public struct Screen: Hashable, Sendable {
        /// Parameters that must be present.
        public var required: Set<String>
        /// Parameters that may be present.
        public var optional: Set<String>
        /// Default values a new model of the screen gets for the keys it is created without (React Navigation's
        /// `initialParams`).
        public var initialParams: [String: String]
        /// The parameters that identify a model of the screen (React Navigation's `getId`): pushing the screen with
        /// the same values brings the element already showing it to the top of its stack instead of a second one.
        public var identity: [String]

        /// Declares a screen's parameters.
        public init(
            required: Set<String> = [], optional: Set<String> = [], initialParams: [String: String] = [:],
            identity: [String] = []
        ) {
            self.required = required
            self.optional = optional
            self.initialParams = initialParams
            self.identity = identity
        }
    }

    /// Every declared screen by name.
    public var screens: [String: Screen]

    /// Creates a catalog.
    public init(_ screens: [String: Screen]) { self.screens = screens }

    /// `spec` with its screen's initial params merged under its own (a plain screen only; the spec itself when its
    /// screen declares none). O(initial params).
    func withInitialParams(_ spec: ModelSpec) -> ModelSpec {
        guard case .screen = spec.content, let defaults = screens[spec.screen]?.initialParams, !defaults.isEmpty else {
            return spec
        }
        var spec = spec
        spec.params.merge(defaults) { given, _ in given }
        return spec
    }

    /// The index of the element of `path` showing the same model as `spec` by its screen's identity (same screen,
    /// equal values of the identity params, `spec`'s initial params counted), `nil` when its screen declares none or
    /// no element matches. O(path × identity).
    func identical(_ spec: ModelSpec, in path: [StackElement], nodes: NodeTable) -> Int? {
        guard case .screen = spec.content, spec.presented == nil, let keys = screens[spec.screen]?.identity, !keys.isEmpty
        else { return nil }
        let params = withInitialParams(spec).params
        return path.lastIndex { element in
            guard let node = nodes[element.model], node.kind == .screen, node.screen == spec.screen else { return false }
            return keys.allSatisfy { node.params[$0] == params[$0] }
        }
    }

    /// Throws unless `spec` (a plain screen) is declared and has its required and only declared parameters.
    func check(_ spec: ModelSpec) throws(NavigationError) {
        guard case .screen = spec.content else { return }
        guard let screen = screens[spec.screen] else {
            throw .unknownScreen(spec.screen, suggestion: Spelling.closest(to: spec.screen, in: screens.keys.sorted()))
        }
        // Sorted only to name the first offender of a failing check (a stable message); the checks run on every push.
        let isMissing = { (name: String) in spec.params[name] == nil }
        let isUnknown = { (name: String) in !screen.required.contains(name) && !screen.optional.contains(name) }
        if screen.required.contains(where: isMissing), let missing = screen.required.sorted().first(where: isMissing) {
            throw .invalidSpec("screen '\(spec.screen)' requires parameter '\(missing)'")
        }
        if spec.params.keys.contains(where: isUnknown), let unknown = spec.params.keys.sorted().first(where: isUnknown) {
            let meant = Spelling.closest(to: unknown, in: (screen.required.union(screen.optional)).sorted())
            throw .invalidSpec(
                "screen '\(spec.screen)' has no parameter '\(unknown)'" + (meant.map { "; did you mean '\($0)'?" } ?? ""))
        }
    }
}
