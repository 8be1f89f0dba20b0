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

    /// One change of `window` made as every way in makes it: asked of the window's policy and guards
    /// (``gated(_:_:)``) within the acting client's content budget; a mark's refusal is noted for `Prevented` and
    /// every refusal thrown; the content the change added is charged to the acting client.
    func change(
        _ window: SessionWindow, _ body: (NavigationWindow, ContentBudget) throws(NavigationError) -> ChangeEvent
    ) throws(SessionError) -> ChangeEvent {
        let before = window.graph.contentCost
        let event: ChangeEvent
        do {
            event = try gated(window) { () throws(NavigationError) in try body(window.graph, contentBudget(for: window)) }
        } catch {
            noteRefusal(error, in: window.number)
            throw .navigation(error)
        }
        charge(window, contentBefore: before)
        return event
    }

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

    /// Throws `LimitsExceeded` when the acting client's process added more history bytes recently than
    /// ``SessionLimits/clientHistoryBytes`` allows (its changes are refused until the share refills). O(1); free
    /// for changes the daemon makes itself and for a replay.
    func checkHistoryShare() throws(SessionError) {
        guard !replaying, let client = actingClient else { return }
        if let message = clientBudgets.historyRefusal(of: client, at: clock.nanoseconds(), limits: limits) {
            throw .limitsExceeded(message)
        }
    }

    /// Charges a recorded change's history bytes to the acting client's process (none for the daemon's own).
    func chargeHistory(_ bytes: Int) {
        guard !replaying, let client = actingClient else { return }
        clientBudgets.chargeHistory(bytes, to: client, at: clock.nanoseconds(), limits: limits)
    }

    /// Records the peer process `client` (a unique name) belongs to (`pid:1234`, else `uid:1000`): every
    /// connection of one process charges one share (content, windows, messages, marks, scheduled batches).
    /// `app`: its Flatpak app id (`""`: not sandboxed; `nil`: not known, which no `host` or `app:` principal matches).
    public func join(client: String, process: String, app: String? = nil) {
        clientBudgets.join(client, share: process)
        if let app { clientApps[client] = app }
    }

    /// Whether ``join(client:process:)`` told `client`'s process (or that it has none to tell).
    public func knowsProcess(of client: String) -> Bool { clientBudgets.knowsShare(of: client) }

    /// The share `client` charges: its process's once known.
    public func share(of client: String) -> String { clientBudgets.share(of: client) }

    /// Throws `LimitsExceeded` naming the share when `batch` would give `client`'s process more marks than
    /// ``SessionLimits/maxClientMarks`` or more waiting scheduled batches than ``SessionLimits/maxClientScheduled``.
    /// Free for a batch without `protect` or `schedule`; else O(marks + scheduled batches of the session).
    func checkMarkAndScheduleShares(of batch: [BatchCommand], client: String?) throws(SessionError) {
        guard let client else { return }
        var protects = 0
        var schedules = 0
        func count(_ command: NavigationCommand) {
            switch command {
            case .protect: protects += 1
            case .schedule: schedules += 1
            case .sequence(let commands): commands.forEach(count)
            default: break
            }
        }
        batch.forEach { count($0.command) }
        guard protects > 0 || schedules > 0 else { return }
        let mine = share(of: client)
        if protects > 0 {
            var held = 0
            for window in windows where window.graph.protectedCount > 0 {
                for entry in window.graph.protections where share(of: entry.protection.owner) == mine { held += 1 }
            }
            guard held + protects <= limits.maxClientMarks else {
                throw .limitsExceeded(
                    "the client holds \(held) marks; a client (one process) may hold at most \(limits.maxClientMarks) "
                        + "(per-client mark share)")
            }
        }
        if schedules > 0 {
            var waiting = 0
            for number in scheduledWindows {
                for batch in windowsByNumber[number]?.graph.scheduled ?? [] where batch.author.map(share(of:)) == mine {
                    waiting += 1
                }
            }
            guard waiting + schedules <= limits.maxClientScheduled else {
                throw .limitsExceeded(
                    "the client has \(waiting) scheduled batches waiting; a client (one process) may have at most "
                        + "\(limits.maxClientScheduled) (per-client schedule share)")
            }
        }
    }

    /// Whether `client`'s process sent at least `bytes` of messages recently (its message rate's bucket is down by
    /// that much): a flood the bus may be holding for subscribers that do not read.
    public func sentMessagesRecently(_ client: String?, atLeast bytes: Int) -> Bool {
        guard let client else { return true }
        return clientBudgets.recentMessageBytes(of: client, at: clock.nanoseconds()) >= bytes
    }

    /// Whether anything in the session belongs to `client`: a close-on-exit tie or a share in use.
    public func isTracking(client: String) -> Bool {
        clientBudgets.knows(client) || providesGuard(client) || windows.contains { $0.closeOnExitOwner == client }
            || ownsMarks(client) || authorsScheduled(client)
    }
}
