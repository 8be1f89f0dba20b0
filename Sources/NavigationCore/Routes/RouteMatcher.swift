/// Which route `goBackTo` goes back to: the nearest route of the active branch that matches, counting from the
/// top — the top itself included, so a match on top changes nothing (FlowStacks' `goBackTo`, Jetpack's
/// `popBackStack(route, inclusive = false)`).
///
/// `{"command":"goBackTo","screen":"detail"}` (with `"params":{…}` the screen *value*: its params equal; with
/// `"paramsContaining":{…}` a predicate: those params among its own), `{"command":"goBackTo","tag":"inbox"}`,
/// `{"command":"goBackTo","model":12}` (or `"model":"tag:inbox"`), `{"command":"goBackTo","index":0}`: exactly
/// one selector key.
public enum RouteMatcher: Hashable, Sendable {
    /// A route showing this screen (a presented stack's route shows its element 0's screen), its params matching
    /// `params` when given.
    case screen(String, params: ParamsMatch? = nil)
    /// The route of the model carrying this application-chosen tag (NavigationViewKit's `popToRoot(tag:)`).
    case tag(String)
    /// The route of this model (for a presented stack, the stack or its element 0).
    case model(ModelReference)
    /// The route at this index of the route view (`GetRoutes`): index 0 is the first route, so going back
    /// to it keeps that route and removes every later one.
    case index(Int)

    /// How a screen matcher's params are compared with a route's.
    public enum ParamsMatch: Hashable, Sendable {
        /// The route's params are exactly these (the screen's value: FlowStacks' `goBackTo(.detail(id))`).
        case equal([String: String])
        /// The route's params include these keys with these values (a predicate: `goBackTo(where:)`).
        case containing([String: String])

        /// Whether `params` match.
        public func matches(_ params: [String: String]) -> Bool {
            switch self {
            case .equal(let wanted): params == wanted
            case .containing(let wanted): wanted.allSatisfy { params[$0.key] == $0.value }
            }
        }
    }

    /// The selector keys of the JSON form, in the order they are tried.
    static let keys = ["screen", "tag", "model", "index"]
    /// The keys that refine the `screen` selector (at most one of them, only with `screen`).
    static let paramsKeys = ["params", "paramsContaining"]

    /// What was looked for, for error messages: `screen "detail"`, `model 12`, `route index 3`.
    public var description: String {
        switch self {
        case .screen(let name, nil): "screen \"\(name.prefix(64))\""
        case .screen(let name, .equal(let params)?):
            "screen \"\(name.prefix(64))\" with params \(Self.describe(params))"
        case .screen(let name, .containing(let params)?):
            "screen \"\(name.prefix(64))\" with params containing \(Self.describe(params))"
        case .tag(let tag): "tag \"\(tag.prefix(64))\""
        case .model(let reference): "model \(reference)"
        case .index(let index): "route index \(index)"
        }
    }

    /// `{"id":"9"}`, sorted, at most 8 pairs and 64 bytes of each text shown.
    private static func describe(_ params: [String: String]) -> String {
        let pairs = params.sorted { $0.key < $1.key }
        let shown = pairs.prefix(8).map { "\"\($0.key.prefix(64))\":\"\($0.value.prefix(64))\"" }
        return "{" + shown.joined(separator: ",") + (pairs.count > 8 ? ",…" : "") + "}"
    }
}
