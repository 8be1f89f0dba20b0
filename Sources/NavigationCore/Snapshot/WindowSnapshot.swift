/// The whole graph of a window as one value: Codable, Equatable, Sendable.
///
/// Models are listed in graph pre-order starting with the root. ``nextModelID`` is the id counter, so
/// ids are never reused after a restore. Creating or decoding a snapshot validates it; an invalid one
/// throws ``NavigationError/invalidSnapshot(_:)`` and never traps. See `Docs/state-schema.md`.
///
/// ```swift
/// let data = try JSONEncoder().encode(window.snapshot())
/// let restored = try NavigationWindow(snapshot: JSONDecoder().decode(WindowSnapshot.self, from: data))
/// ```
public struct WindowSnapshot: Hashable, Sendable {
    /// The JSON format version this library reads and writes.
    public static let formatVersion = 1

    /// The largest counter a saved state may hold (2^53, the largest integer every JSON reader keeps exact):
    /// window versions and ids here, session versions, generations and activity stamps in the session's
    /// files. No real state gets near it, and it leaves room to count on, so a damaged file with a huge
    /// counter is refused when it is read instead of trapping on the next change.
    public static let maxCounter = 1 << 53

    /// The window version (number of applied changes since creation).
    public let version: Int
    /// The next id the window will allocate; greater than every id in ``models``.
    public let nextModelID: Int
    /// Whether the window was closed by the renderer.
    public let isClosed: Bool
    /// The root model's id.
    public let root: ModelID
    /// Every model, in graph pre-order from the root.
    public let models: [ModelState]
    /// The batches waiting for their deadline, in scheduling order.
    public internal(set) var scheduled: [ScheduledBatch] = []
    /// The number of the next id the window assigns to a batch scheduled without one (`s<n>`).
    public internal(set) var nextScheduleNumber = 1
    /// The window's forward list: the next route `goForward` re-enters first.
    public internal(set) var forward: [ForwardEntry] = []
    /// The models prepared ahead of being shown (``PreparedModel``), oldest first.
    public internal(set) var prepared: [PreparedModel] = []
    /// The window's own renderer state; each model's is in its ``ModelState``.
    public internal(set) var rendererState: RendererState?

    /// Creates and validates a snapshot.
    ///
    /// - Throws: ``NavigationError/invalidSnapshot(_:)`` naming the broken rule: duplicate ids, ids not
    ///   below `nextModelID`, dangling references, a model in two places, parent/attachment mismatch,
    ///   unreachable models, empty stacks, bad tab selection, non-leaf alerts, kept branches (`saved`) on a
    ///   model that is not a switched container, two under one screen, or under another screen than their root's.
    public init(
        version: Int, nextModelID: Int, root: ModelID, models: [ModelState], isClosed: Bool = false,
        scheduled: [ScheduledBatch] = [], nextScheduleNumber: Int = 1, rendererState: RendererState? = nil
    ) throws(NavigationError) {
        try Self.validate(version: version, nextModelID: nextModelID, root: root, models: models)
        try Self.validate(scheduled: scheduled, nextScheduleNumber: nextScheduleNumber, models: models)
        self.init(unchecked: version, nextModelID: nextModelID, root: root, models: models, isClosed: isClosed)
        self.scheduled = scheduled
        self.nextScheduleNumber = nextScheduleNumber
        self.rendererState = rendererState
    }

    /// Scheduled batches name models of the snapshot, have distinct non-empty ids and a counter in range.
    static func validate(
        scheduled: [ScheduledBatch], nextScheduleNumber: Int, models: [ModelState]
    ) throws(NavigationError) {
        guard nextScheduleNumber >= 1, nextScheduleNumber <= maxCounter else {
            throw .invalidSnapshot("nextScheduleNumber \(nextScheduleNumber) is not in 1...\(maxCounter)")
        }
        guard !scheduled.isEmpty else { return }
        let ids = Set(models.map(\.id))
        var seen: Set<String> = []
        for batch in scheduled {
            guard !batch.id.isEmpty, seen.insert(batch.id).inserted else {
                throw .invalidSnapshot("scheduled batch id \"\(batch.id.prefix(64))\" is empty or repeated")
            }
            guard ids.contains(batch.model) else {
                throw .invalidSnapshot("scheduled batch \"\(batch.id.prefix(64))\" names unknown model \(batch.model)")
            }
            guard !batch.commands.isEmpty else {
                throw .invalidSnapshot("scheduled batch \"\(batch.id.prefix(64))\" has no commands")
            }
        }
    }

    init(unchecked version: Int, nextModelID: Int, root: ModelID, models: [ModelState], isClosed: Bool) {
        self.version = version
        self.nextModelID = nextModelID
        self.root = root
        self.models = models
        self.isClosed = isClosed
    }

    /// The model with `id`, or `nil`. O(number of models).
    public func model(_ id: ModelID) -> ModelState? { models.first { $0.id == id } }

    static func validate(version: Int, nextModelID: Int, root: ModelID, models: [ModelState]) throws(NavigationError) {
        func fail(_ text: String) -> NavigationError { .invalidSnapshot(text) }
        guard version >= 0 else { throw fail("version \(version) is negative") }
        guard version <= maxCounter, nextModelID <= maxCounter else {
            throw fail("version \(version) or nextModelID \(nextModelID) is above \(maxCounter)")
        }
        var byID: [ModelID: ModelState] = [:]
        var taggedBy: [String: ModelID] = [:]
        for model in models {
            guard byID.updateValue(model, forKey: model.id) == nil else { throw fail("duplicate model id \(model.id)") }
            guard model.id.rawValue >= 1, model.id.rawValue < nextModelID else {
                throw fail("model id \(model.id) is not in 1..<nextModelID (\(nextModelID))")
            }
            guard model.paramsHistory.count <= NavigationWindow.maxParamsHistory else {
                throw fail("model \(model.id) keeps \(model.paramsHistory.count) params; at most \(NavigationWindow.maxParamsHistory)")
            }
            if model.resultTo != nil {
                guard case .presented = model.attachment else {
                    throw fail("model \(model.id) names a result recipient but is not presented")
                }
            }
            if let transition = model.transition {
                guard case .presented = model.attachment else {
                    throw fail("model \(model.id) carries a transition but is not presented")
                }
                if let problem = PresentationSpec.transitionProblem(transition) { throw fail("model \(model.id): \(problem)") }
            }
            if let tag = model.tag {
                guard !tag.isEmpty else { throw fail("model \(model.id) has an empty tag") }
                if let other = taggedBy.updateValue(model.id, forKey: tag) {
                    throw fail("models \(other) and \(model.id) both carry tag \"\(tag.prefix(64))\"")
                }
            }
        }
        guard let rootModel = byID[root] else { throw fail("root \(root) is not among the models") }
        guard rootModel.parent == nil, rootModel.attachment == .root else {
            throw fail("root \(root) must have no parent and attachment root")
        }
        guard rootModel.kind != .alert, rootModel.kind != .confirmationDialog else {
            throw fail("root \(root) cannot be an alert or dialog")
        }
        var referenced: Set<ModelID> = []
        for model in models {
            for (child, _) in try expectedChildren(of: model) where !referenced.insert(child).inserted || child == root {
                throw fail("model \(child) is attached in two places")
            }
        }
        var reached: Set<ModelID> = [root]
        var pending: [ModelState] = [rootModel]
        while let model = pending.popLast() {
            for (child, attachment) in try expectedChildren(of: model) {
                guard let childModel = byID[child] else { throw fail("model \(model.id) refers to unknown model \(child)") }
                guard reached.insert(child).inserted else { throw fail("model \(child) is attached in two places") }
                guard childModel.parent == model.id else {
                    throw fail("model \(child) has parent \(childModel.parent.map(\.description) ?? "none"), expected \(model.id)")
                }
                if case .saved(let screen) = attachment, childModel.screen != screen {
                    throw fail("model \(child) is kept under \"\(screen)\" but its screen is \"\(childModel.screen)\"")
                }
                guard Self.matches(childModel, attachment) else {
                    throw fail("model \(child) has the wrong attachment for its place under \(model.id)")
                }
                pending.append(childModel)
            }
        }
        guard reached.count == byID.count else {
            let orphan = models.first { !reached.contains($0.id) }?.id.description ?? "?"
            throw fail("model \(orphan) is not reachable from the root")
        }
    }

    /// `expected == nil` stands for "some presentation style that fits the model's kind".
    private static func matches(_ model: ModelState, _ expected: Attachment?) -> Bool {
        guard let expected else {
            guard case .presented(let style) = model.attachment else { return false }
            switch (style, model.kind) {
            case (.alert, .alert), (.confirmationDialog, .confirmationDialog): return true
            case (.alert, _), (.confirmationDialog, _), (_, .alert), (_, .confirmationDialog): return false
            default: return true
            }
        }
        if model.kind == .alert || model.kind == .confirmationDialog { return false }
        return model.attachment == expected
    }

    private static func expectedChildren(of model: ModelState) throws(NavigationError) -> [(ModelID, Attachment?)] {
        var result: [(ModelID, Attachment?)] = []
        if let presented = model.presented { result.append((presented, nil)) }
        switch model.content {
        case .screen: break
        case .stack(let path, _):
            guard !path.isEmpty else { throw .invalidSnapshot("stack \(model.id) has an empty path") }
            result += path.enumerated().map { ($1.model, .path(index: $0)) }
        case .tabs(let tabs, let selected):
            guard !tabs.isEmpty else { throw .invalidSnapshot("tabs \(model.id) has no tabs") }
            guard Set(tabs.map(\.id)).count == tabs.count else {
                throw .invalidSnapshot("tabs \(model.id) repeats a tab id")
            }
            guard tabs.contains(where: { $0.id == selected }) else {
                throw .invalidSnapshot("tabs \(model.id) selects unknown tab \"\(selected)\"")
            }
            if let history = model.tabState?.history, !history.isEmpty {
                let ids = Set(tabs.map(\.id))
                switch model.tabState?.policy.backBehavior {
                case .fullHistory?:
                    guard history.count <= TabState.maxFullHistory, history.allSatisfy(ids.contains) else {
                        throw .invalidSnapshot(
                            "tabs \(model.id) has a tab history of unknown tabs or over \(TabState.maxFullHistory) visits")
                    }
                case .initialRoute?:
                    guard history.count == 1, history.allSatisfy(ids.contains) else {
                        throw .invalidSnapshot("tabs \(model.id) has an initial tab that is not one of its tabs")
                    }
                default:
                    guard Set(history).count == history.count, history.allSatisfy(ids.contains), !history.contains(selected)
                    else {
                        throw .invalidSnapshot("tabs \(model.id) has a tab history that is not distinct unselected tabs")
                    }
                }
            }
            result += tabs.map { ($0.model, .tab($0.id)) }
        case .switched(let child): result.append((child, .switched))
        case .alert, .confirmationDialog:
            guard model.presented == nil else { throw .invalidSnapshot("\(model.kind.tag) \(model.id) must be a leaf") }
        case .custom(let kind, let children, let selected):
            guard !kind.isEmpty else { throw .invalidSnapshot("custom model \(model.id) has an empty kind") }
            guard children.indices.contains(selected) || (children.isEmpty && selected == 0) else {
                throw .invalidSnapshot("custom model \(model.id) selects child \(selected) of \(children.count)")
            }
            result += children.enumerated().map { ($1, .custom(index: $0)) }
        }
        if !model.saved.isEmpty {
            guard model.kind == .switched else {
                throw .invalidSnapshot("model \(model.id) keeps branches but is not a switched container")
            }
            guard Set(model.saved.map(\.screen)).count == model.saved.count else {
                throw .invalidSnapshot("switched model \(model.id) keeps two branches under one screen")
            }
            result += model.saved.map { ($0.model, .saved($0.screen)) }
        }
        return result
    }
}
