/// The transaction payload (swift-navigation's `UITransaction`).
extension NavigationWindow {
    /// A `transaction` command: checks the payload's bounds and that the change carries only one. It changes
    /// nothing in the graph, so a batch of only a transaction is a no-op; the payload travels in the batch
    /// (journal, `Changed`'s `cause_json`).
    func carryTransaction(_ payload: JSONValue) throws(NavigationError) {
        guard case .object = payload else { throw .invalidSpec("a transaction's payload must be a JSON object") }
        guard !tx.carriesPayload else {
            throw .limitsExceeded("a change carries at most one transaction payload; this batch has two")
        }
        let text = Self.resultText(payload)
        try configuration.limits.checkText(text, "a transaction payload")
        guard text.utf8.count <= Self.maxTransactionPayloadBytes else {
            throw .limitsExceeded(
                "a transaction payload is \(text.utf8.count) bytes as JSON; at most \(Self.maxTransactionPayloadBytes)")
        }
        tx.carriesPayload = true
    }

    /// The bound on a transaction payload's JSON text, whatever the window's text limit.
    public static let maxTransactionPayloadBytes = 4096
}

extension Sequence where Element == BatchCommand {
    /// The batch's transaction payload (its `transaction` entry), if it carries one. O(batch).
    public var transactionPayload: JSONValue? {
        for entry in self { if case .transaction(let payload) = entry.command { return payload } }
        return nil
    }
}
