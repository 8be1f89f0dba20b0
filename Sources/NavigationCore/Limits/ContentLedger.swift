/// The running sum of the ``NavigationWindow/contentCost`` of every window attached to it.
///
/// A session bounds the content of all its windows together. Summing the windows on every change would
/// make a change's cost grow with the number of open windows; a window attached to a ledger
/// (``NavigationWindow/contentLedger``) instead reports each change of its cost, so the sum is always
/// current and reading it is O(1).
public final class ContentLedger {
    /// The sum of the attached windows' content costs.
    public private(set) var total = 0

    /// Creates a ledger with no window attached (a total of 0).
    public init() {}

    func add(_ delta: Int) {
        total += delta
    }
}
