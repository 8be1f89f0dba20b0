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
    /// Roots of branches this change kept (`suspended: true`) or brought back, in order; the commit works out
    /// which models end up suspended or resumed.
    var keeping: [(root: Node, suspended: Bool)] = []
    /// The change of content cost of models updated in place (`setParams`) that were already counted.
    var costDelta = 0
    /// Tags taken by models this change created, checked for uniqueness when it commits.
    var tagClaims: [TagClaim] = []
    /// Whether a `transaction` command ran in this change (at most one may).
    var carriesPayload = false

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
    /// A custom container's selected child index before the change.
    case selectedChild(Node, Int)
    /// A split container's column visibility / collapsed form before the change.
    case columnVisibility(Node, ColumnVisibility)
    case collapsed(Node, Bool)
    case tabHistory(Node, [String])
    case switched(Node, ModelID?)
    /// A switched container's kept branches before the change.
    case savedBranches(Node, [SavedBranch])
    /// A model's parent, attachment and position before it was hung under or taken off a kept branch (no
    /// presenter-index change: kept branches are outside the index).
    case hung(Node, parent: ModelID?, attachment: Attachment, position: Int)
    case root(ModelID)
    /// The tag index entry of a tag before the change (`nil`: absent).
    case tag(String, ModelID?)
    /// The whole tag index before the change (`setState`).
    case tags([String: ModelID])
    /// A model's params, title and cost before an update in place.
    case content(Node, params: [String: String], title: String?, cost: Int)
    /// A model's params history (`pushParams`) before the change.
    case paramsHistory(Node, [[String: String]])
    /// A model's protection mark before the change.
    case protection(Node, Protection?)
    /// A model's appearance override before the change.
    case appearance(Node, Appearance?)
    /// A stack's tab-bar rule before the change.
    case tabBarRule(Node, hidden: Bool, animated: Bool)
    /// The window's scheduled batches and id counter before the change.
    case scheduled([ScheduledBatch], next: Int)
    /// The window's forward list before the change.
    case forward([ForwardEntry])
    /// A model's renderer state and cost before the change.
    case rendererState(Node, RendererState?, cost: Int)
    /// The window's own renderer state before the change.
    case windowRendererState(RendererState?)
    /// The prepared models before the change.
    case prepared([PreparedModel])
}
