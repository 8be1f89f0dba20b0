/// What a move between windows did (``ChangeCause/moved(_:)``), the same in the change of both windows:
/// `{"moved":{"from":1,"ids":{"7":12,"8":13},"model":7,"tab":"draft","to":2,"transaction":"move-1-14"}}`.
/// `ids` maps each moved model's id in the source window to its id in the target (equal when kept: a new window
/// keeps them); `tab` is the moved tab's id in the target, when a tab moved.
public struct MoveRecord: Hashable, Sendable, Codable {
    /// One id shared by the two changes of one move (`move-<source window>-<source version>`), so a renderer of
    /// either window, or a script watching both, can pair them.
    public var transaction: String
    /// The source window's number.
    public var from: Int
    /// The target window's number.
    public var to: Int
    /// The moved model's id in the source window.
    public var model: ModelID
    /// Source id → target id, for every moved model.
    public var ids: [ModelID: ModelID]
    /// The moved tab's id in the target (a tab moved), else `nil`.
    public var tab: String?

    /// Creates a record.
    public init(transaction: String, from: Int, to: Int, model: ModelID, ids: [ModelID: ModelID], tab: String? = nil) {
        self.transaction = transaction
        self.from = from
        self.to = to
        self.model = model
        self.ids = ids
        self.tab = tab
    }

    enum CodingKeys: String, CodingKey { case transaction, from, to, model, ids, tab }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transaction = try c.decode(String.self, forKey: .transaction)
        from = try c.decode(Int.self, forKey: .from)
        to = try c.decode(Int.self, forKey: .to)
        model = try c.decode(ModelID.self, forKey: .model)
        var ids: [ModelID: ModelID] = [:]
        for (key, value) in try c.decode([String: Int].self, forKey: .ids) {
            guard let old = Int(key) else {
                throw DecodingError.dataCorruptedError(forKey: .ids, in: c, debugDescription: "'\(key)' is not a model id")
            }
            ids[ModelID(rawValue: old)] = ModelID(rawValue: value)
        }
        self.ids = ids
        tab = try c.decodeIfPresent(String.self, forKey: .tab)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transaction, forKey: .transaction)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(model, forKey: .model)
        try c.encode(Dictionary(uniqueKeysWithValues: ids.map { (String($0.key.rawValue), $0.value.rawValue) }), forKey: .ids)
        try c.encodeIfPresent(tab, forKey: .tab)
    }
}
