#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore
import NavigationRouting

/// Deep-link declarations: NavigationRouting validates the routes, then every scene, screen and
/// parameter they name is checked against the manifest.
extension ManifestValidator {
    func validateDeepLinks() throws(ManifestError) -> (DeepLinkRouter?, [String: DeepLinkEntryCondition]) {
        guard let original = document.deepLinks else { return (nil, [:]) }
        // `requires`/`redirect` are the session's (entry conditions); the router reads the rest.
        let (declaration, conditions) = try splitEntryConditions(original)
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
        var byName: [String: DeepLinkEntryCondition] = [:]
        for (index, route) in router.routes.enumerated() {
            try checkName(route.name, at: "deepLinks.routes[\(index)].name")
            try checkDestination(route.destination, at: "deepLinks.routes[\(index)].destination")
            guard let condition = conditions[index] else { continue }
            try checkEntryCondition(condition, scene: route.destination.window.scene, at: "deepLinks.routes[\(index)]")
            byName[route.name] = condition
        }
        return (router, byName)
    }

    /// Takes each route's `requires` and `redirect` out of the declaration: route index → its condition.
    private func splitEntryConditions(
        _ declaration: JSONValue
    ) throws(ManifestError) -> (JSONValue, [Int: DeepLinkEntryCondition]) {
        guard case .object(var object) = declaration, case .array(var routes)? = object["routes"] else {
            return (declaration, [:])
        }
        var conditions: [Int: DeepLinkEntryCondition] = [:]
        for index in routes.indices {
            guard case .object(var route) = routes[index] else { continue }
            let key = "deepLinks.routes[\(index)]"
            let requires = route.removeValue(forKey: "requires")
            let redirect = route.removeValue(forKey: "redirect")
            guard requires != nil || redirect != nil else { continue }
            routes[index] = .object(route)
            guard let requires else {
                throw .invalidValue(key: "\(key).redirect", detail: "a redirect needs an entry condition ('requires')")
            }
            guard case .object(let fields) = requires else {
                throw .invalidValue(key: "\(key).requires", detail: "must be an object: {\"state\": \"…\"} or {}")
            }
            if let unknown = fields.keys.sorted().first(where: { $0 != "state" }) {
                throw .invalidValue(key: "\(key).requires.\(unknown)", detail: "unknown key (allowed: state)")
            }
            var state: String?
            switch fields["state"] {
            case nil: state = nil
            case .string(let name)?: state = name
            case _?: throw .invalidValue(key: "\(key).requires.state", detail: "must be a string")
            }
            var commands: [BatchCommand] = []
            if let redirect {
                guard state != nil else {
                    throw .invalidValue(
                        key: "\(key).redirect", detail: "a redirect needs a state to wait for ('requires.state')")
                }
                commands = try decodeRedirect(redirect, at: "\(key).redirect")
            }
            conditions[index] = DeepLinkEntryCondition(state: state, redirect: commands)
        }
        object["routes"] = .array(routes)
        return (.object(object), conditions)
    }

    private func decodeRedirect(_ value: JSONValue, at key: String) throws(ManifestError) -> [BatchCommand] {
        guard case .array = value else { throw .invalidValue(key: key, detail: "must be an array of commands") }
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONDecoder().decode([BatchCommand].self, from: data)
        } catch {
            throw .invalidValue(key: key, detail: "not a list of commands: \(error)")
        }
    }

    /// A route's `requires.state` is a state of the scene its links go to; its redirect holds valid commands.
    private func checkEntryCondition(
        _ condition: DeepLinkEntryCondition, scene: String, at key: String
    ) throws(ManifestError) {
        if let state = condition.state {
            guard !state.isEmpty else { throw .emptyName(key: "\(key).requires.state") }
            let states = document.scenes.first { $0.name == scene }?.states.keys
            guard states?.contains(state) == true else {
                throw .unknownState(key: "\(key).requires.state", state: state)
            }
        }
        try checkRedirect(condition.redirect, at: "\(key).redirect")
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
