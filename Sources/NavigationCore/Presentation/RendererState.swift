/// A renderer's own state for a window or for one model: a small JSON object the daemon
/// keeps, persists and returns in snapshots but never reads (GTK's per-window `a{sv}` state, Decompose's
/// `StateKeeper`, Jetpack's `SavedStateHandle`). A scroll position, a draft's text, a window's size.
///
/// The object is kept in its canonical form (``json``: compact, keys sorted, numbers as doubles), which is what
/// snapshots write and what is bounded (``maxBytes``) and counted in the window's content cost. Set by
/// ``NavigationCommand/setRendererState(model:_:)``, which replaces the whole object; an empty object clears it.
///
/// ```swift
/// let state = RendererState(["scroll": .number(420), "draft": .string("Dear Ann,")])
/// try window.run(.setRendererState(model: 7, state))     // nil model: the window's own state
/// ```
public struct RendererState: Hashable, Sendable {
    /// The object's members.
    public let members: [String: JSONValue]
    /// The canonical JSON text of the object (sorted keys, no spaces).
    public let json: String

    /// The bound on one renderer state's canonical JSON text, in UTF-8 bytes (a window's or one model's).
    public static let maxBytes = 4096

    /// The empty object (what clears a renderer state).
    public static let empty = RendererState([:])

    /// A renderer state holding `members`.
    public init(_ members: [String: JSONValue]) {
        self.members = members
        json = members.isEmpty ? "{}" : JSONOutput.string(JSONValue.object(members), fallback: "{}")
    }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The content it adds to every message that carries it (its canonical JSON text plus a key).
    var cost: Int { json.utf8.count + 24 }

    /// Throws ``NavigationError/limitsExceeded(_:)`` when the canonical text is over ``maxBytes``.
    func checkSize(_ what: @autoclosure () -> String) throws(NavigationError) {
        guard json.utf8.count <= Self.maxBytes else {
            throw .limitsExceeded(
                "\(what())'s renderer state is \(json.utf8.count) bytes as JSON; at most \(Self.maxBytes)")
        }
    }
}

extension RendererState: Codable {
    /// Decodes a JSON object; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        guard case .object(let members) = try c.decode(JSONValue.self) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a renderer state must be a JSON object")
        }
        self.init(members)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(JSONValue.object(members))
    }
}
