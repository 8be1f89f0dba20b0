/// Which route `goBackTo` goes back to: the nearest route below the top of the active branch that matches.
///
/// `{"command":"goBackTo","screen":"detail"}`, `{"command":"goBackTo","tag":"inbox"}`,
/// `{"command":"goBackTo","model":12}` (or `"model":"tag:inbox"`), `{"command":"goBackTo","index":0}`: exactly
/// one selector key.
public enum RouteMatcher: Hashable, Sendable {
    /// A route showing this screen (a presented stack's route shows its element 0's screen).
    case screen(String)
    /// The route of the model carrying this application-chosen tag (NavigationViewKit's `popToRoot(tag:)`).
    case tag(String)
    /// The route of this model (for a presented stack, the stack or its element 0).
    case model(ModelReference)
    /// The route at this index of the route view (`GetRoutes`): index 0 is the first route, so going back
    /// to it keeps that route and removes every later one.
    case index(Int)

    /// The selector keys of the JSON form, in the order they are tried.
    static let keys = ["screen", "tag", "model", "index"]

    /// What was looked for, for error messages: `screen "detail"`, `model 12`, `route index 3`.
    public var description: String {
        switch self {
        case .screen(let name): "screen \"\(name.prefix(64))\""
        case .tag(let tag): "tag \"\(tag.prefix(64))\""
        case .model(let reference): "model \(reference)"
        case .index(let index): "route index \(index)"
        }
    }
}
