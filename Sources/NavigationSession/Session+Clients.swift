import NavigationCore

/// Charging what clients create to their shares (``ClientBudgets``).
extension Session {
    /// Runs `body` with its changes charged to `client` (`nil`: to no one); effects of those changes are
    /// the client's too, as they are what it asked for.
    func acting<T>(as client: String?, _ body: () throws(SessionError) -> T) throws(SessionError) -> T {
        let previous = actingClient
        actingClient = client
        defer { actingClient = previous }
        return try body()
    }

    /// The session's content budget for a change to `window` (nil: a window being opened), with the acting
    /// client's share. O(1): the ledger and the client's charge hold the sums, so a change costs the same
    /// with 1 or 256 windows open.
    func contentBudget(for window: SessionWindow?) -> ContentBudget {
        ContentBudget(
            others: contentLedger.total - (window?.graph.contentCost ?? 0), maximum: limits.maxSessionContentCost,
            clientCharged: clientBudgets.content(of: actingClient),
            clientShare: actingClient == nil ? .max : limits.maxClientContentCost)
    }

    /// The budget a window being opened must fit.
    func newWindowBudget() -> ContentBudget { contentBudget(for: nil) }

    /// Charges the acting client with what a change did to `window`'s content, which was `before`.
    func charge(_ window: SessionWindow, contentBefore before: Int) {
        clientBudgets.record(window.graph.contentCost - before, in: window.number, by: actingClient)
    }

    /// The content charged to `client` now, over all windows (its share's use).
    public func contentCharged(to client: String) -> Int { clientBudgets.content(of: client) }

    /// How many of the open windows `client` opened.
    public func windowsOpened(by client: String) -> Int { clientBudgets.windows(of: client) }

    /// Throws `LimitsExceeded` when `client` has used up its `SendMessage` rate; otherwise counts the message.
    func takeMessage(of bytes: Int, from client: String?) throws(SessionError) {
        guard let client else { return }
        if let message = clientBudgets.takeMessage(of: bytes, from: client, at: clock.nanoseconds(), limits: limits) {
            throw .limitsExceeded(message)
        }
    }

    /// Whether anything in the session belongs to `client`: a close-on-exit tie or a share in use.
    public func isTracking(client: String) -> Bool {
        clientBudgets.knows(client) || providesGuard(client) || windows.contains { $0.closeOnExitOwner == client }
            || ownsMarks(client) || authorsScheduled(client)
    }
}
