/// A way to name one model of a window: its id, or the application-chosen tag it carries.
///
/// In JSON a reference is an integer id (`12`) or the string `"tag:<tag>"` (`"tag:inbox"`), wherever a
/// model id goes (a batch entry's `from`, a `sendMessage` target, a `stackSetPath` existing element, the
/// model of `setParams`, …). The window resolves a tag in O(1) through its tag index
/// (``NavigationWindow/model(forTag:)``); an unknown tag is ``NavigationError/unknownTag(_:)``.
///
/// ```swift
/// let entry = BatchCommand(.dismiss, from: .tag("compose"))
/// let same = BatchCommand(.dismiss, from: 17)          // an id, as before
/// ```
public enum ModelReference: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// A model by id.
    case id(ModelID)
    /// The model carrying this tag.
    case tag(String)

    /// The prefix of a tag reference in JSON.
    public static let tagPrefix = "tag:"

    /// A reference to the model with `id`.
    public init(_ id: ModelID) { self = .id(id) }

    /// A reference to an id literal (`let reference: ModelReference = 12`).
    public init(integerLiteral value: Int) { self = .id(ModelID(rawValue: value)) }

    /// The id when this is an id reference.
    public var modelID: ModelID? {
        if case .id(let id) = self { return id }
        return nil
    }

    /// `#12` or `tag:inbox`.
    public var description: String {
        switch self {
        case .id(let id): id.description
        case .tag(let tag): Self.tagPrefix + tag
        }
    }

    /// Parses the string form `"tag:<tag>"`; `nil` for any other string.
    public init?(tagReference text: String) {
        guard text.hasPrefix(Self.tagPrefix) else { return nil }
        self = .tag(String(text.dropFirst(Self.tagPrefix.count)))
    }
}

extension ModelReference: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let id = try? c.decode(Int.self) {
            // Model ids start at 1: a command naming 0 or less would otherwise be accepted now and fail later (a
            // scheduled batch), or be kept in a state its schema refuses.
            guard id >= 1 else {
                throw DecodingError.dataCorruptedError(
                    in: c, debugDescription: "a model id is at least 1 (got \(id)); omit the key for the executing model")
            }
            self = .id(ModelID(rawValue: id))
            return
        }
        guard let text = try? c.decode(String.self), let reference = ModelReference(tagReference: text) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "a model is an integer id or a string \"tag:<tag>\"")
        }
        self = reference
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .id(let id): try c.encode(id)
        case .tag(let tag): try c.encode(Self.tagPrefix + tag)
        }
    }
}

/// The tag index of a window: application-chosen tags of its models, unique per window.
extension NavigationWindow {
    /// The model carrying `tag`, or `nil`. O(1).
    public func model(forTag tag: String) -> ModelID? { tags[tag] }

    /// The tag of `id`, or `nil` (unknown model or no tag). O(1).
    public func tag(of id: ModelID) -> String? { nodes[id]?.tag }

    /// The tag of the nearest tagged model among the active model and its ancestors (NavigationViewKit's "tag
    /// of the current view"), `nil` when none is tagged. O(depth).
    public var activeTag: String? {
        // Every tagged model is in the tag index, so an empty index means no tag anywhere; Window1 reads
        // this after every change, and most windows tag nothing (no walk, no lookups).
        guard !tags.isEmpty else { return nil }
        // One read of `nodes` for the walk (each read of a class's stored property is an exclusivity check).
        let nodes = self.nodes
        var current = nodes[activeModelID]
        while let node = current {
            if let tag = node.tag { return tag }
            current = node.parent.flatMap { nodes[$0] }
        }
        return nil
    }

    /// The id `reference` names right now.
    /// - Throws: ``NavigationError/unknownTag(_:)`` for a tag no model carries.
    public func resolve(_ reference: ModelReference) throws(NavigationError) -> ModelID {
        switch reference {
        case .id(let id): return id
        case .tag(let tag):
            guard let id = tags[tag] else { throw .unknownTag(tag) }
            return id
        }
    }

    /// Gives a new model its tag. Whether another model keeps it is decided when the change commits
    /// (``checkTagClaims()``): a model this change removes (a replaced root, a switched-out state) passes its tag
    /// on, whatever order the change creates and removes in. Journaled.
    func claimTag(_ tag: String, for node: Node) throws(NavigationError) {
        try GraphLimits.checkTag(tag)
        tx.undo.append(.tag(tag, tags[tag]))
        tx.tagClaims.append(TagClaim(tag: tag, node: node, previous: tags[tag]))
        tags[tag] = node.id
        node.tag = tag
    }

    /// Throws ``NavigationError/duplicateTag(_:existing:)`` when a model the change created took a tag that a
    /// model still in the graph (live or in a kept branch) carries; gives a tag back to its holder when its new claimant did not stay.
    /// O(claims × depth).
    func checkTagClaims() throws(NavigationError) {
        for claim in tx.tagClaims {
            // Kept branches (saved by a switched model) hold on to their tags: they come back with them.
            let stays = isInGraph(claim.node)
            if stays, let holder = claim.previous, holder != claim.node.id, let existing = nodes[holder], isInGraph(existing) {
                throw .duplicateTag(claim.tag, existing: holder)
            }
            if !stays, tags[claim.tag] == claim.node.id { tags[claim.tag] = claim.previous }
        }
    }
}

/// A tag taken by a model the running change created, and the model that had it before (if any).
struct TagClaim {
    var tag: String
    var node: Node
    var previous: ModelID?
}
