/// What a walk down a window's graph reads at one model (``NavigationWindow/branchStep(at:stackRoot:tab:)``).
public struct BranchStep: Hashable, Sendable {
    /// The model's kind.
    public var kind: ModelKind
    /// The model in its presentation slot, if any.
    public var presented: ModelID?
    /// The container child the walk continues into, if any.
    public var child: ModelID?

    /// Creates a step.
    public init(kind: ModelKind, presented: ModelID?, child: ModelID?) {
        self.kind = kind
        self.presented = presented
        self.child = child
    }
}
