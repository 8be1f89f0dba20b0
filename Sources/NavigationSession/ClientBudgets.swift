import NavigationCore

/// What each client (a D-Bus unique name) has created, so one client cannot exhaust what the session
/// shares between all of them (``SessionLimits/maxClientContentCost``, ``SessionLimits/maxClientWindows``,
/// ``SessionLimits/clientMessages``, ``SessionLimits/clientMessageBytes``).
///
/// Charges are kept per window, so closing a window gives back what it held to whoever created it, and a
/// shrinking window gives back first to the client that shrank it. Changes the daemon makes itself (the
/// manifest's start, a journal replay, a waiting deep link) are charged to no one and count only in the
/// session's ceiling. Nothing here is persisted: unique names do not outlive the daemon's connection.
struct ClientBudgets {
    /// Per window, the content charged to each client that grew it; the sum never exceeds the window's cost.
    private var charges: [WindowNumber: [String: Int]] = [:]
    /// Per client, the sum of its charges over all windows.
    private(set) var content: [String: Int] = [:]
    /// The client that opened each window, for windows opened by a client.
    private var openers: [WindowNumber: String] = [:]
    /// Per client, how many of the open windows it opened.
    private(set) var windows: [String: Int] = [:]
    /// Per client, its `SendMessage` buckets: messages and bytes.
    private var messageBuckets: [String: (count: TokenBucket, bytes: TokenBucket)] = [:]

    /// The content charged to `client` over all windows (0 for no client).
    func content(of client: String?) -> Int { client.flatMap { content[$0] } ?? 0 }

    /// The open windows `client` opened (0 for no client).
    func windows(of client: String?) -> Int { client.flatMap { windows[$0] } ?? 0 }

    /// Whether anything is recorded for `client`.
    func knows(_ client: String) -> Bool {
        content[client] != nil || windows[client] != nil || messageBuckets[client] != nil
    }

    /// Records a change of window `number`'s content by `delta` made by `client` (`nil`: the daemon).
    ///
    /// Growth is charged to the client; shrinking gives back first the client's own charge in the window,
    /// then the others' there, largest first, so no charge outlives the content it paid for.
    mutating func record(_ delta: Int, in number: WindowNumber, by client: String?) {
        if delta > 0 {
            guard let client else { return }
            charges[number, default: [:]][client, default: 0] += delta
            content[client, default: 0] += delta
            return
        }
        guard delta < 0, var window = charges[number] else { return }
        var remaining = -delta
        if let client, let own = window[client] {
            let given = min(own, remaining)
            window[client] = own - given
            give(given, back: client)
            remaining -= given
        }
        for (other, charged) in window.sorted(by: { $0.value > $1.value }) where remaining > 0 && charged > 0 {
            let given = min(charged, remaining)
            window[other] = charged - given
            give(given, back: other)
            remaining -= given
        }
        charges[number] = window.filter { $0.value > 0 }
    }

    /// Records that `client` opened window `number`.
    mutating func opened(_ number: WindowNumber, by client: String?) {
        guard let client else { return }
        openers[number] = client
        windows[client, default: 0] += 1
    }

    /// Forgets window `number`: its charges and its opener's count.
    mutating func closed(_ number: WindowNumber) {
        for (client, charged) in charges.removeValue(forKey: number) ?? [:] { give(charged, back: client) }
        if let opener = openers.removeValue(forKey: number) {
            windows[opener] = (windows[opener] ?? 1) - 1
            if windows[opener] == 0 { windows[opener] = nil }
        }
    }

    /// Forgets every window (a restore starting over).
    mutating func closedAll() {
        self = ClientBudgets()
    }

    /// Forgets `client` (it left the bus): what it created stays, counted only in the session's ceiling.
    mutating func forget(_ client: String) {
        guard knows(client) else { return }
        content[client] = nil
        windows[client] = nil
        messageBuckets[client] = nil
        for number in charges.keys { charges[number]?[client] = nil }
        openers = openers.filter { $0.value != client }
    }

    /// Takes one message of `bytes` from `client`'s buckets at `now`, or says why not (nothing taken then).
    mutating func takeMessage(
        of bytes: Int, from client: String, at now: UInt64, limits: SessionLimits
    ) -> String? {
        var buckets = messageBuckets[client]
            ?? (TokenBucket(limits.clientMessages, now: now), TokenBucket(limits.clientMessageBytes, now: now))
        guard buckets.count.allows(1, at: now), buckets.bytes.allows(bytes, at: now) else {
            messageBuckets[client] = buckets
            return "the client's messages are limited to \(limits.clientMessages.perSecond) per second "
                + "(burst \(limits.clientMessages.burst)) and \(limits.clientMessageBytes.perSecond) bytes per second "
                + "(burst \(limits.clientMessageBytes.burst)) (per-client message rate)"
        }
        buckets.count.take(1)
        buckets.bytes.take(bytes)
        messageBuckets[client] = buckets
        return nil
    }

    private mutating func give(_ amount: Int, back client: String) {
        guard amount > 0, let charged = content[client] else { return }
        content[client] = charged > amount ? charged - amount : nil
    }
}
