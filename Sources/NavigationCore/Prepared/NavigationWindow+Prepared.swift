/// Prepared models (Window1 `Prepare`, the `prepare` command; React Navigation's `preload`): a screen made ahead of
/// time, off the visible branch, so a renderer may build it before it is shown. A later push or presentation of the
/// same screen with the same params promotes it: the model created takes the prepared model's id.
///
/// A prepared model is not in the graph: no command reaches it, `CanGoBack` and the routes do not see it, it has no
/// lifecycle until promoted. It is bounded (``maxPrepared`` per window, the oldest dropped) and expires after
/// ``preparedLifetime`` changes of the window (counted in versions, so a journal replays the same expiries).
public struct PreparedModel: Hashable, Sendable, Codable {
    /// The id the model will have when it is shown.
    public var id: ModelID
    /// The screen and its params (the manifest's initial params merged in, as for any new model).
    public var screen: String
    public var params: [String: String]
    /// Its title, if given.
    public var title: String?
    /// The window version of the change that prepared it.
    public var version: Int

    /// Creates an entry.
    public init(id: ModelID, screen: String, params: [String: String], title: String? = nil, version: Int) {
        self.id = id
        self.screen = screen
        self.params = params
        self.title = title
        self.version = version
    }

    /// Whether `spec` asks for this very model: a plain screen of the same name and params, no tag, nothing presented.
    func matches(_ spec: ModelSpec) -> Bool {
        spec.kind == .screen && spec.presented == nil && spec.tag == nil && spec.screen == screen && spec.params == params
    }
}

extension NavigationWindow {
    /// At most this many prepared models per window; preparing one more drops the oldest.
    public static let maxPrepared = 8
    /// A prepared model not shown within this many changes of its window is dropped.
    public static let preparedLifetime = 64

    /// The `prepare` command: `spec` (a plain screen) made ahead, its id taken now. The same screen and params
    /// prepared already: no change. Fails as making the model would (an undeclared screen, missing params, limits),
    /// and with ``NavigationError/invalidSpec(_:)`` for anything but a plain screen.
    func prepare(_ given: ModelSpec) throws(NavigationError) {
        guard given.kind == .screen, given.presented == nil, given.tag == nil else {
            throw .invalidSpec("prepare takes a plain screen (no container, tag or presentation): the model a push would show")
        }
        let spec = configuration.screens?.withInitialParams(given) ?? given
        try configuration.limits.check(spec)
        try configuration.screens?.check(spec)
        guard !prepared.contains(where: { $0.matches(spec) }) else { return }
        tx.undo.append(.prepared(prepared))
        var entries = prepared
        entries.append(PreparedModel(
            id: ModelID(rawValue: nextID), screen: spec.screen, params: spec.params, title: spec.title, version: version + 1))
        nextID += 1
        if entries.count > Self.maxPrepared { entries.removeFirst(entries.count - Self.maxPrepared) }
        prepared = entries
    }

    /// The id of the prepared model `spec` asks for (its screen's initial params merged in, as a push would), or `nil`.
    public func preparedID(for given: ModelSpec) -> ModelID? {
        let spec = configuration.screens?.withInitialParams(given) ?? given
        return prepared.first { $0.matches(spec) }?.id
    }

    /// The prepared model `spec` asks for, taken off the list (within the change: rolled back with it), or `nil`.
    func takePrepared(for spec: ModelSpec) -> ModelID? {
        guard !prepared.isEmpty, let index = prepared.firstIndex(where: { $0.matches(spec) }) else { return nil }
        tx.undo.append(.prepared(prepared))
        return prepared.remove(at: index).id
    }

    /// Drops the prepared models past their lifetime at `version` (a committed change's). O(1) when none is prepared.
    func expirePrepared(at version: Int) {
        guard !prepared.isEmpty else { return }
        prepared.removeAll { version - $0.version >= Self.preparedLifetime }
    }

    /// Window1 `Prepared`: `[{"model":14,"params":{"id":"42"},"screen":"detail"}]`, oldest first (`title` when given);
    /// `[]` when none.
    public var preparedJSON: String {
        guard !prepared.isEmpty else { return "[]" }
        return "[" + prepared.map { entry in
            #"{"model":\#(entry.id.rawValue),"params":"# + JSONOutput.string(entry.params, fallback: "{}") + #","screen":"#
                + JSONString.literal(entry.screen) + (entry.title.map { #","title":"# + JSONString.literal($0) } ?? "") + "}"
        }.joined(separator: ",") + "]"
    }
}
