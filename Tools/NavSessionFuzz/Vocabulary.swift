import Foundation

/// What the application declares, for calls the daemon should accept: screens and their parameters,
/// dialogs, presentation kinds, scenes and their states, tab ids and deep-link routes.
///
/// Read from the daemon's own manifest (`navsessiond --print-demo-manifest`); every field is optional in
/// that JSON, so a manifest of another shape only makes the valid calls less varied.
struct Vocabulary: Sendable {
    struct Screen: Sendable {
        var name: String
        var required: [String]
        var optional: [String]
    }

    struct Dialog: Sendable {
        var name: String
        var kind: String
        var actions: [String]
    }

    struct Route: Sendable {
        /// The route's declared name (`""` when none).
        var name = ""
        /// e.g. `detail/:id(int)/edit`.
        var pattern: String
        /// Query parameter names and types (`bool`, `int`, or `string`).
        var query: [(name: String, type: String)]
    }

    /// The manifest's own text: CheckManifest and ReloadManifest of it keep every window as it is.
    var manifestJSON = ""
    var screens: [Screen] = []
    var dialogs: [Dialog] = []
    var presentationKinds: [String] = []
    var scenes: [String] = []
    var states: [String] = []
    var tabs: [String] = []
    var schemes: [String] = []
    var routes: [Route] = []
    /// The declared guards (`guards`), by name: the screens each covers and its `timeoutMs`.
    var guards: [(name: String, screens: [String], timeoutMs: Int)] = []

    /// Every screen some guard covers, in name order of the guards.
    var coveredScreens: [String] {
        var screens: [String] = []
        for entry in guards { for screen in entry.screens where !screens.contains(screen) { screens.append(screen) } }
        return screens
    }

    var screenNames: [String] { screens.map(\.name) }

    /// URLs of the deep-link routes without parameters named like a covered screen (the demo's
    /// `navsession-demo://settings/profile`): the ways in a guard provider is asked about.
    var coveredURLs: [String] {
        let covered = Set(coveredScreens)
        return schemes.prefix(1).flatMap { scheme in
            routes.filter { covered.contains($0.name) && !$0.pattern.contains(":") }.map { scheme + "://" + $0.pattern }
        }
    }

    /// Every declared name, for strings that are almost right.
    var words: [String] {
        screenNames + dialogs.map(\.name) + presentationKinds + scenes + states + tabs + schemes
            + dialogs.flatMap(\.actions)
    }

    func screen(named name: String) -> Screen? { screens.first { $0.name == name } }

    /// Parses a manifest; nil when `json` is not a JSON object.
    init?(manifestJSON json: String) {
        manifestJSON = json
        guard let root = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            return nil
        }
        for screen in root["screens"] as? [[String: Any]] ?? [] {
            guard let name = screen["name"] as? String else { continue }
            screens.append(
                Screen(
                    name: name, required: screen["required"] as? [String] ?? [],
                    optional: screen["optional"] as? [String] ?? []))
        }
        for (name, body) in (root["dialogs"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let dialog = body as? [String: Any] ?? [:]
            let actions = (dialog["actions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            dialogs.append(Dialog(name: name, kind: dialog["kind"] as? String ?? "alert", actions: actions))
        }
        presentationKinds = root["presentationKinds"] as? [String] ?? []
        for scene in root["scenes"] as? [[String: Any]] ?? [] {
            if let name = scene["name"] as? String { scenes.append(name) }
            if let states = scene["states"] as? [String: Any] { self.states += states.keys.sorted() }
        }
        tabs = Self.tabIDs(in: root)
        let deepLinks = root["deepLinks"] as? [String: Any] ?? [:]
        schemes = deepLinks["schemes"] as? [String] ?? []
        for route in deepLinks["routes"] as? [[String: Any]] ?? [] {
            guard let pattern = route["pattern"] as? String else { continue }
            let query = (route["query"] as? [[String: Any]] ?? []).compactMap { item -> (String, String)? in
                guard let name = item["name"] as? String else { return nil }
                return (name, item["type"] as? String ?? "string")
            }
            routes.append(Route(name: route["name"] as? String ?? "", pattern: pattern, query: query))
        }
        for (name, body) in (root["guards"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let declaration = body as? [String: Any] ?? [:]
            let covers = declaration["covers"] as? [String: Any] ?? [:]
            guards.append((name, covers["screens"] as? [String] ?? [], declaration["timeoutMs"] as? Int ?? 500))
        }
    }

    /// A vocabulary with nothing declared (when the manifest cannot be read).
    init() {}

    /// Tab ids anywhere in the manifest (in declaration order, without repeats).
    private static func tabIDs(in value: Any) -> [String] {
        var found: [String] = []
        var pending: [Any] = [value]
        while let next = pending.popLast() {
            if let object = next as? [String: Any] {
                for tab in object["tabs"] as? [[String: Any]] ?? [] {
                    if let id = tab["id"] as? String, !found.contains(id) { found.append(id) }
                }
                pending += object.keys.sorted().reversed().compactMap { object[$0] }
            } else if let array = next as? [Any] {
                pending += array.reversed()
            }
        }
        return found
    }
}
