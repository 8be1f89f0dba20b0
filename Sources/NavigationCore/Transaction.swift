/// The journal of one change in progress: how to undo it, and what to report when it commits.
struct Transaction {
    var undo: [UndoStep] = []
    var created: [Node] = []
    var unlinked: [Node] = []
    var modified: [ModelID] = []
    var modifiedSet: Set<ModelID> = []
    var messages: [DeliveredMessage] = []
    var effects: [Effect] = []
    var effectSources: [ModelID] = []
    var closing = false
    /// The renderer steps of the change so far, in the order the graph went through them.
    var steps: [NavigationStep] = []

    mutating func markModified(_ id: ModelID) {
        if modifiedSet.insert(id).inserted { modified.append(id) }
    }
}

/// One reversible mutation; rollback replays the inverses newest first.
enum UndoStep {
    case created(ModelID)
    case linked(Node)
    case unlinked(Node, parent: Node, attachment: Attachment, position: Int)
    case pathAppended(Node, count: Int)
    case pathDropped(Node, [StackElement])
    case pathReplaced(Node, [StackElement])
    case pathElementReplaced(Node, index: Int, StackElement)
    case slot(Node, ModelID?)
    case selectedTab(Node, String)
    case tabHistory(Node, [String])
    case switched(Node, ModelID?)
    case root(ModelID)
}
