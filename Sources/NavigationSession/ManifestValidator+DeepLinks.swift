import Foundation
import NavigationCore
import NavigationRouting

/// Deep-link declarations: NavigationRouting validates the routes, then every scene, screen and
/// parameter they name is checked against the manifest.
extension ManifestValidator {
    func validateDeepLinks() throws(ManifestError) -> DeepLinkRouter? {
        guard let declaration = document.deepLinks else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(declaration), let json = String(data: data, encoding: .utf8) else {
            throw .invalidRoute(key: "deepLinks", detail: "cannot re-encode the declaration")
        }
        let router: DeepLinkRouter
        do {
            router = try DeepLinkRouter(json: json)
        } catch {
            throw .invalidRoute(key: routeKey(for: error, in: declaration), detail: error.description)
        }
        for (index, route) in router.routes.enumerated() {
            try checkName(route.name, at: "deepLinks.routes[\(index)].name")
            try checkDestination(route.destination, at: "deepLinks.routes[\(index)].destination")
        }
        return router
    }

    private func checkDestination(_ destination: DeepLinkDestination, at key: String) throws(ManifestError) {
        let scene = destination.window.scene
        guard let declaration = document.scenes.first(where: { $0.name == scene }) else {
            throw .unknownScene(key: "\(key).window.scene", scene: scene)
        }
        if let entry = declaration.rootStructure?.entryScreen {
            let params = Array(entry.params.keys) + Array(destination.window.params.keys)
            try checkScreen(entry.screen, params: params, at: "\(key).window.params", entry: false)
        }
        for (index, screen) in destination.push.enumerated() {
            try checkScreen(screen.screen, params: screen.params.keys, at: "\(key).push[\(index)]", entry: false)
        }
        for (index, presentation) in destination.present.enumerated() {
            let presentKey = "\(key).present[\(index)]"
            try checkScreen(
                presentation.root.screen, params: presentation.root.params.keys, at: "\(presentKey).root", entry: false)
            for (position, screen) in presentation.push.enumerated() {
                try checkScreen(
                    screen.screen, params: screen.params.keys, at: "\(presentKey).push[\(position)]", entry: false)
            }
        }
    }

    /// `deepLinks.routes[i]` for errors that name a route, `deepLinks.<path>` for JSON shape errors.
    private func routeKey(for error: DeepLinkDeclarationError, in declaration: JSONValue) -> String {
        let routeName: String?
        switch error {
        case .invalidJSON(let detail):
            // The detail names the key: "missing key 'routes[0].pattern'" or "'routes[0].pattern' must be …".
            let parts = detail.split(separator: "'", omittingEmptySubsequences: false)
            if parts.count >= 3, !parts[1].isEmpty, !parts[1].contains(" ") { return "deepLinks.\(parts[1])" }
            return "deepLinks"
        case .noSchemes, .invalidScheme: return "deepLinks.schemes"
        case .emptyRouteName(let index): return "deepLinks.routes[\(index)].name"
        case .duplicateRouteName(let name): routeName = name
        case .emptyPatternSegment(let route, _), .invalidPlaceholder(let route, _, _): return patternKey(route, declaration)
        case .duplicateParameter(let route, _), .unknownType(let route, _, _), .emptyQueryName(let route, _),
            .requiredWithDefault(let route, _), .invalidDefault(let route, _, _, _), .invalidTemplate(let route, _, _, _),
            .unknownTemplateParameter(let route, _, _), .emptyName(let route, _), .pushWithoutNavigation(let route, _):
            routeName = route
        }
        guard let routeName, let index = routeIndex(routeName, in: declaration, last: isDuplicate(error)) else {
            return "deepLinks.routes"
        }
        return "deepLinks.routes[\(index)]"
    }

    private func isDuplicate(_ error: DeepLinkDeclarationError) -> Bool {
        if case .duplicateRouteName = error { return true }
        return false
    }

    private func patternKey(_ route: String, _ declaration: JSONValue) -> String {
        guard let index = routeIndex(route, in: declaration, last: false) else { return "deepLinks.routes" }
        return "deepLinks.routes[\(index)].pattern"
    }

    private func routeIndex(_ name: String, in declaration: JSONValue, last: Bool) -> Int? {
        guard case .object(let object) = declaration, case .array(let routes)? = object["routes"] else { return nil }
        let indices = routes.indices.filter { index in
            if case .object(let route) = routes[index], case .string(let routeName)? = route["name"] {
                return routeName == name
            }
            return false
        }
        return last ? indices.last : indices.first
    }
}
