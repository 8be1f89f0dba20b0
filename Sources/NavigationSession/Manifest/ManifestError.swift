/// Why an application manifest was rejected; every case names where (a key path or a line and column).
///
/// Key paths are written into the JSON form: `scenes[1].root.tabs[0].model`, `dialogs.logout.actions[0]`,
/// `deepLinks.routes[2].destination.push[0]`. ``description`` is one line: `<where>: <what>`.
///
/// ```swift
/// do { _ = try Manifest(json: text) } catch {
///     print(error)  // scenes[1].root.tabs[0].model: unknown screen 'detial'
/// }
/// ```
public enum ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, detail: String)
    /// The text is not JSON; `line` and `column` (1-based) point at the first offending character.
    case malformedJSON(line: Int, column: Int, detail: String)
    /// The manifest (a file at `key`, or `(root)` for text) is `bytes` long, over ``Manifest/maximumBytes``.
    case tooLarge(key: String, bytes: Int, limit: Int)
    /// One object gives `name` twice (JSON decoders would keep one silently); `line` and `column` point at
    /// the second.
    case duplicateKey(line: Int, column: Int, name: String)
    /// A name (screen, scene, state, parameter, dialog, action id, presentation kind, route, object key) is
    /// `bytes` UTF-8 bytes, over the run-time limit (`GraphLimits.maxNameBytes`).
    case nameTooLong(key: String, bytes: Int, limit: Int)
    /// A string (a title, a dialog message, a parameter value, a pattern) is `bytes` UTF-8 bytes, over the
    /// run-time limit for texts (`GraphLimits.maxTextBytes`).
    case textTooLong(key: String, bytes: Int, limit: Int)
    /// A key is missing or has the wrong type or an unknown tag.
    case invalidValue(key: String, detail: String)
    /// The manifest declares a `format` this library does not read.
    case unsupportedFormat(key: String, format: Int)
    /// The application id is not a D-Bus bus name usable as an object path element.
    case invalidApplicationID(key: String, id: String, reason: String)
    /// A name is empty or declared twice (screens, scenes, dialogs, states, parameters).
    case duplicateName(key: String, name: String)
    /// A name is empty where one is required.
    case emptyName(key: String)
    /// A structure, route or command refers to a screen the manifest does not declare.
    case unknownScreen(key: String, screen: String)
    /// A declared structure or route omits a required parameter of its screen.
    case missingParameter(key: String, screen: String, parameter: String)
    /// A declared structure or route passes a parameter its screen does not declare.
    case unknownParameter(key: String, screen: String, parameter: String)
    /// A route or command names a scene that does not exist.
    case unknownScene(key: String, scene: String)
    /// A scene refers to a state it does not declare.
    case unknownState(key: String, state: String)
    /// A custom presentation kind is used but not declared in `presentationKinds`.
    case unknownPresentationKind(key: String, kind: String)
    /// No scene is marked `"default": true`.
    case noDefaultScene
    /// More than one scene is marked default.
    case severalDefaultScenes(keys: [String])
    /// A structure is rejected by NavigationCore (empty stack, duplicate tab ids, misplaced presentation, …).
    case invalidStructure(key: String, detail: String)
    /// A deep-link declaration is rejected by NavigationRouting.
    case invalidRoute(key: String, detail: String)

    /// Where the problem is: a key path, `line L, column C`, a file path, or `scenes`.
    public var key: String {
        switch self {
        case .unreadable(let path, _): path
        case .malformedJSON(let line, let column, _), .duplicateKey(let line, let column, _):
            "line \(line), column \(column)"
        case .noDefaultScene: "scenes"
        case .severalDefaultScenes(let keys): keys.last ?? "scenes"
        case .invalidValue(let key, _), .unsupportedFormat(let key, _), .invalidApplicationID(let key, _, _),
            .duplicateName(let key, _), .emptyName(let key), .unknownScreen(let key, _),
            .missingParameter(let key, _, _), .unknownParameter(let key, _, _), .unknownScene(let key, _),
            .unknownState(let key, _), .unknownPresentationKind(let key, _), .invalidStructure(let key, _),
            .invalidRoute(let key, _), .tooLarge(let key, _, _), .nameTooLong(let key, _, _),
            .textTooLong(let key, _, _):
            key
        }
    }

    /// `<where>: <what>`, e.g. `scenes[1].root.tabs[0].model: unknown screen 'detial'`.
    public var description: String { "\(key): \(reason)" }

    /// What is wrong, without where: `unknown screen 'detial'`.
    public var reason: String {
        let what: String
        switch self {
        case .unreadable(_, let detail): what = "cannot read the manifest: \(detail)"
        case .malformedJSON(_, _, let detail): what = "malformed JSON: \(detail)"
        case .tooLarge(_, let bytes, let limit): what = "the manifest is \(bytes) bytes; the limit is \(limit)"
        case .duplicateKey(_, _, let name): what = "duplicate key \"\(name)\" in one object"
        case .nameTooLong(_, let bytes, let limit): what = "a name of \(bytes) bytes; names are limited to \(limit)"
        case .textTooLong(_, let bytes, let limit): what = "a text of \(bytes) bytes; texts are limited to \(limit)"
        case .invalidValue(_, let detail): what = detail
        case .unsupportedFormat(_, let format): what = "unsupported manifest format \(format) (this build reads 1)"
        case .invalidApplicationID(_, let id, let reason): what = "invalid application id '\(id)': \(reason)"
        case .duplicateName(_, let name): what = "'\(name)' is declared twice"
        case .emptyName: what = "name is empty"
        case .unknownScreen(_, let screen): what = "unknown screen '\(screen)'"
        case .missingParameter(_, let screen, let parameter):
            what = "screen '\(screen)' requires parameter '\(parameter)'"
        case .unknownParameter(_, let screen, let parameter):
            what = "screen '\(screen)' has no parameter '\(parameter)'"
        case .unknownScene(_, let scene): what = "unknown scene '\(scene)'"
        case .unknownState(_, let state): what = "unknown state '\(state)'"
        case .unknownPresentationKind(_, let kind):
            what = "unknown presentation kind '\(kind)' (declare it in presentationKinds)"
        case .noDefaultScene: what = "no scene is marked \"default\": true"
        case .severalDefaultScenes(let keys): what = "several default scenes: \(keys.joined(separator: ", "))"
        case .invalidStructure(_, let detail): what = "invalid structure: \(detail)"
        case .invalidRoute(_, let detail): what = detail
        }
        return what
    }
}
