extension DeepLinkDestination {
    /// Every template string with its key path, e.g. `("destination.push[0].params.id", "{id}")`.
    var templates: [(key: String, template: String)] {
        var result: [(key: String, template: String)] = []
        func add(_ params: [String: String], at key: String) {
            for name in params.keys.sorted() {
                result.append(("\(key).params.\(name)", params[name] ?? ""))
            }
        }
        if let tab { result.append(("destination.tab", tab)) }
        add(window.params, at: "destination.window")
        for (index, screen) in push.enumerated() {
            add(screen.params, at: "destination.push[\(index)]")
        }
        for (index, presentation) in present.enumerated() {
            add(presentation.root.params, at: "destination.present[\(index)].root")
            for (pushIndex, screen) in presentation.push.enumerated() {
                add(screen.params, at: "destination.present[\(index)].push[\(pushIndex)]")
            }
        }
        return result
    }

    /// Every screen and scene name with its key path, for the non-empty check.
    var names: [(key: String, name: String)] {
        var result = [("destination.window.scene", window.scene)]
        for (index, screen) in push.enumerated() {
            result.append(("destination.push[\(index)].screen", screen.screen))
        }
        for (index, presentation) in present.enumerated() {
            result.append(("destination.present[\(index)].root.screen", presentation.root.screen))
            for (pushIndex, screen) in presentation.push.enumerated() {
                result.append(("destination.present[\(index)].push[\(pushIndex)].screen", screen.screen))
            }
        }
        return result
    }

    /// The destination with every template replaced by parameter values.
    ///
    /// A `params` entry or the `tab` whose template references an absent parameter is left out.
    func rendered(with values: [String: String]) -> DeepLinkDestination {
        func render(_ params: [String: String]) -> [String: String] {
            params.compactMapValues { Template.render($0, values) }
        }
        func render(_ screen: ScreenSpec) -> ScreenSpec {
            ScreenSpec(screen.screen, params: render(screen.params))
        }
        return DeepLinkDestination(
            window: WindowTarget(scene: window.scene, open: window.open, params: render(window.params)),
            tab: tab.flatMap { Template.render($0, values) },
            reset: reset,
            push: push.map(render),
            present: present.map {
                DeepLinkPresentation($0.style, withNavigation: $0.withNavigation, root: render($0.root), push: $0.push.map(render))
            })
    }
}
