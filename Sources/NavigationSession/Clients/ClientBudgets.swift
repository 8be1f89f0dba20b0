import NavigationCore

/// What each client has created, so one client cannot exhaust what the session shares between all of them
/// (``SessionLimits/maxClientContentCost``, ``SessionLimits/maxClientWindows``, ``SessionLimits/clientMessages``,
/// ``SessionLimits/clientMessageBytes``).
///
/// A share belongs to a peer *process*, not to a connection: the daemon tells ``join(_:share:)`` the process of each
/// connection (`pid:1234` from the bus's `GetConnectionUnixProcessID`, else `uid:1000`), and every unique name of
/// that process charges one share — so a process with many connections has one share. A connection whose process
/// is not known (yet) charges a share of its own, merged into its process's when it becomes known.
///
/// Charges are kept per window, so closing a window gives back what it held to whoever created it, and a
/// shrinking window gives back first to the client that shrank it. Changes the daemon makes itself (the
/// manifest's start, a journal replay, a waiting deep link) are charged to no one and count only in the
/// session's ceiling. Nothing here is persisted: unique names do not outlive the daemon's connection.
///
/// A class the session holds once: a struct of these dictionaries held in a `var` of the session was copied for
/// every question asked of it (a retain and a release per dictionary, several times a call).
final class ClientBudgets {
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
    /// Per client, the history bytes its changes added recently (``SessionLimits/clientHistoryBytes``).
    private var historyBuckets: [String: TokenBucket] = [:]
    /// Each connection's share (its process), once known.
    private var shares: [String: String] = [:]
    /// Per share, its connections on the bus.
    private var members: [String: Int] = [:]

    /// Whether ``join(_:share:)`` told `client`'s share.
    func knowsShare(of client: String) -> Bool { shares[client] != nil }

    /// The share `client` charges: its process's, or its own until that is known.
    func share(of client: String) -> String { shares[client] ?? client }

    /// The content charged to `client`'s share over all windows (0 for no client).
    func content(of client: String?) -> Int { client.flatMap { content[share(of: $0)] } ?? 0 }

    /// The open windows `client`'s share opened (0 for no client).
    func windows(of client: String?) -> Int { client.flatMap { windows[share(of: $0)] } ?? 0 }

    /// Whether anything is recorded for `client` (its process known counts: it must be forgotten when it leaves).
    func knows(_ client: String) -> Bool {
        shares[client] != nil || content[client] != nil || windows[client] != nil || messageBuckets[client] != nil
            || historyBuckets[client] != nil
    }

    /// Records that `client` belongs to `share` (its process): what it charged on its own moves there. Bounded
    /// like the rest: one entry per connection on the bus, forgotten when it leaves.
    func join(_ client: String, share: String) {
        guard shares[client] == nil else { return }
        shares[client] = share
        members[share, default: 0] += 1
        if let own = content.removeValue(forKey: client) { content[share, default: 0] += own }
        if let own = windows.removeValue(forKey: client) { windows[share, default: 0] += own }
        if let own = messageBuckets.removeValue(forKey: client), messageBuckets[share] == nil { messageBuckets[share] = own }
        if let own = historyBuckets.removeValue(forKey: client), historyBuckets[share] == nil { historyBuckets[share] = own }
        for number in charges.keys {
            if let own = charges[number]?.removeValue(forKey: client) { charges[number]?[share, default: 0] += own }
        }
        for (number, opener) in openers where opener == client { openers[number] = share }
    }

    /// Records a change of window `number`'s content by `delta` made by `client` (`nil`: the daemon).
    ///
    /// Growth is charged to the client; shrinking gives back first the client's own charge in the window,
    /// then the others' there, largest first, so no charge outlives the content it paid for.
    func record(_ delta: Int, in number: WindowNumber, by client: String?) {
        let client = client.map(share(of:))
        if delta > 0 {
            guard let client else { return }
            if charges.update(number, { $0.add(delta, to: client) }) == nil { charges[number] = [client: delta] }
            content.add(delta, to: client)
            return
        }
        guard delta < 0 else { return }
        // Changed in place (a charge that reaches 0 is removed), so the common case — a client taking back
        // what it added — copies, sorts and filters nothing, and finds the window's charges and its own once.
        var remaining = -delta
        if let client {
            guard let given = charges.update(number, { $0.take(upTo: remaining, from: client) }) else { return }
            give(given, back: client)
            remaining -= given
        }
        guard remaining > 0, let others = charges[number], !others.isEmpty else { return }
        for (other, charged) in others.sorted(by: { $0.value > $1.value }) where remaining > 0 {
            let given = min(charged, remaining)
            charges[number]?[other] = charged > given ? charged - given : nil
            give(given, back: other)
            remaining -= given
        }
    }

    /// Records that `client` opened window `number`.
    func opened(_ number: WindowNumber, by client: String?) {
        guard let client = client.map(share(of:)) else { return }
        openers[number] = client
        windows[client, default: 0] += 1
    }

    /// Forgets window `number`: its charges and its opener's count.
    func closed(_ number: WindowNumber) {
        for (client, charged) in charges.removeValue(forKey: number) ?? [:] { give(charged, back: client) }
        if let opener = openers.removeValue(forKey: number) {
            windows[opener] = (windows[opener] ?? 1) - 1
            if windows[opener] == 0 { windows[opener] = nil }
        }
    }

    /// Forgets every window (a restore starting over): every field but the shares and their members.
    func closedAll() {
        charges = [:]
        content = [:]
        openers = [:]
        windows = [:]
        messageBuckets = [:]
        historyBuckets = [:]
    }

    /// Forgets `client` (it left the bus); its share goes with the last connection of its process: what it
    /// created stays, counted only in the session's ceiling.
    func forget(_ client: String) {
        if let share = shares.removeValue(forKey: client) {
            let left = (members[share] ?? 1) - 1
            members[share] = left > 0 ? left : nil
            guard left <= 0 else { return }
            forgetShare(share)
            return
        }
        forgetShare(client)
    }

    private func forgetShare(_ client: String) {
        historyBuckets[client] = nil
        guard content[client] != nil || windows[client] != nil || messageBuckets[client] != nil else { return }
        content[client] = nil
        windows[client] = nil
        messageBuckets[client] = nil
        for number in charges.keys { charges[number]?[client] = nil }
        openers = openers.filter { $0.value != client }
    }

    /// The message bytes `client`'s share spent and has not had refilled at `now`: what it sent recently.
    func recentMessageBytes(of client: String, at now: UInt64) -> Int {
        let share = share(of: client)
        guard var buckets = messageBuckets[share] else { return 0 }
        defer { messageBuckets[share] = buckets }
        return buckets.bytes.spent(at: now)
    }

    /// Takes one message of `bytes` from `client`'s buckets at `now`, or says why not (nothing taken then).
    func takeMessage(
        of bytes: Int, from client: String, at now: UInt64, limits: SessionLimits
    ) -> String? {
        let client = share(of: client)
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

    /// Why `client`'s share may not add history now (its recent changes' history bytes are past the burst and
    /// not yet refilled), or nil. O(1).
    func historyRefusal(of client: String, at now: UInt64, limits: SessionLimits) -> String? {
        // The bucket refills as it is read, in place.
        guard let allowed = historyBuckets.update(share(of: client), { $0.allows(1, at: now) }), !allowed else {
            return nil
        }
        return "the client's changes added more than \(limits.clientHistoryBytes.burst) bytes of history recently "
            + "(at most \(limits.clientHistoryBytes.perSecond) bytes per second after that burst), whether or not "
            + "they changed the graph (per-client history share)"
    }

    /// Charges `bytes` of history (a change's entry) to `client`'s share at `now`; the bucket may go below empty
    /// (the change was admitted before its size was known), and refuses changes until it refills. O(1).
    func chargeHistory(_ bytes: Int, to client: String, at now: UInt64, limits: SessionLimits) {
        let share = share(of: client)
        func charge(_ bucket: inout TokenBucket) {
            _ = bucket.allows(0, at: now)
            bucket.take(bytes)
        }
        if historyBuckets.update(share, charge) == nil {
            var bucket = TokenBucket(limits.clientHistoryBytes, now: now)
            charge(&bucket)
            historyBuckets[share] = bucket
        }
    }

    private func give(_ amount: Int, back client: String) {
        guard amount > 0 else { return }
        _ = content.take(upTo: amount, from: client)
    }
}

extension Dictionary {
    /// Runs `body` on `key`'s value in place and returns what it returns; `nil` (nothing run) when `key` has none.
    /// One lookup, then the value by its index: a `modify` through the key subscript (`dict[key]?.change()`,
    /// `dict[key, default: …]` passed `inout`) allocates its frame, and these run on every change.
    mutating func update<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let index = index(forKey: key) else { return nil }
        return body(&values[index])
    }
}

extension Dictionary where Value == Int {
    /// Adds `amount` to `key`'s count (from 0). One lookup.
    mutating func add(_ amount: Int, to key: Key) {
        if update(key, { $0 += amount }) == nil { self[key] = amount }
    }

    /// Takes up to `amount` from `key`'s count, removing it when it reaches 0; returns what was taken (0 when
    /// `key` has none). One lookup.
    mutating func take(upTo amount: Int, from key: Key) -> Int {
        guard amount > 0, let index = index(forKey: key) else { return 0 }
        let own = values[index]
        let taken = Swift.min(own, amount)
        if own > taken {
            values[index] = own - taken
        } else {
            remove(at: index)
        }
        return taken
    }
}
