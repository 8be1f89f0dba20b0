/// Entry conditions (Docs/guards.md, "Entry guards and redirects"): a screen the configuration lists in
/// ``WindowConfiguration/entryRequirements`` may be started only while the window's switched root shows the
/// state it names, as the change leaves the window.
extension NavigationWindow {
    /// Throws ``NavigationError/entryRefused(screen:state:actual:)`` for the first model in `started` whose
    /// screen's condition does not hold after the change. O(started) plus one walk of the active branch, and
    /// nothing at all when the application declares no condition.
    func checkEntryConditions(_ started: [Node]) throws(NavigationError) {
        let requirements = configuration.entryRequirements
        guard !requirements.isEmpty, !started.isEmpty else { return }
        var shown: String??
        for node in started {
            guard let screen = screen(of: node.id), let state = requirements[screen] else { continue }
            if shown == nil { shown = .some(activeSwitchedModel.flatMap(self.screen(of:))) }
            let actual = shown ?? nil
            guard actual == state else { throw .entryRefused(screen: screen, state: state, actual: actual) }
        }
    }
}
