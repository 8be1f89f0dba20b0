/// What each peer has been sent in replies and has not yet shown it read.
///
/// D-Bus gives a service one socket to the bus, and dbus-daemon counts every message the service sent that a
/// recipient has not read yet against the service's own `max_incoming_bytes` (127 MiB compiled in): once that
/// many bytes wait in the queues of clients that do not read, the bus stops reading from the service, and
/// every client waits. So no peer may have more than ``peerBudget`` bytes of replies in flight, and all peers
/// together no more than ``totalBudget``.
///
/// What a peer read is learned from the bus: `GetConnectionStats(peer)`'s `OutgoingBytes` is what the bus still
/// holds for it, so whatever was sent before the question and is not held any more was read — a blocking client
/// that reads its replies but never dispatches incoming calls is served indefinitely. Where the bus still holds
/// something for it (broadcast signals it subscribed to count too, so the figure can exceed our replies) or has no
/// Stats interface, a peer shows it read by answering `org.freedesktop.DBus.Peer.Ping`, which every libdbus, GDBus and
/// sd-bus connection answers when it dispatches: sent behind the replies, its answer proves the replies before it
/// were read. Any answer counts, an error too; only the bus answering for the peer (it is gone) does not.
struct ReplyLedger {
    struct Peer {
        /// Reply bytes sent and not known to be read.
        var unconfirmed = 0
        /// ``unconfirmed`` when the Ping in flight was sent: what its answer confirms.
        var pingMark: Int?
        /// Whether a Ping beside the bus's figures is in flight (``startSidePing(_:)``).
        var sidePing = false
    }

    /// A peer past this many unconfirmed bytes is sent a Ping.
    static let pingThreshold = 256 << 10
    /// A reply above this many bytes is "large": sent only within the budgets. Smaller replies always go.
    static let smallReply = 64 << 10
    /// Unconfirmed reply bytes one peer may have before its large replies are refused.
    static let peerBudget = 8 << 20
    /// Unconfirmed reply bytes all peers together may have before large replies are refused.
    static let totalBudget = 48 << 20
    /// Past ``peerBudget`` plus this much (of errors and small replies), a peer's calls are not answered at
    /// all: it is not reading them, and each answer would only add to what the bus holds for it.
    static let ignoreAllowance = 1 << 20
    /// Peers tracked at most; beyond it, those with nothing worth a Ping are forgotten.
    static let maximumPeers = 4096

    /// Replies built off the bus thread (deferred) that one peer may have in the making at once; more are refused
    /// before they are built. Their size is known only once built, so a burst of calls for large documents
    /// would otherwise build them all (CPU and memory), only to refuse most at ``refusal(ofReply:to:)``.
    static let maximumBuilding = 4

    private(set) var peers: [String: Peer] = [:]
    private(set) var total = 0
    /// Deferred replies being built, by peer.
    private(set) var building: [String: Int] = [:]

    enum Admission: Equatable {
        case admit
        /// Answered `LimitsExceeded` without running the handler.
        case refuse(String)
        /// Not answered.
        case ignore
    }

    /// Whether a call from `peer` is handled, before any work is done for it.
    func admission(of peer: String?) -> Admission {
        guard let peer, let state = peers[peer], state.unconfirmed >= Self.peerBudget
        else { return .admit }
        if state.unconfirmed >= Self.peerBudget + Self.ignoreAllowance { return .ignore }
        return .refuse(
            "\(state.unconfirmed) bytes of replies to you are not read yet (at most \(Self.peerBudget) may be); "
                + "read them (and let your D-Bus library answer Peer.Ping) before calling again")
    }

    /// Bytes sent to `peer` and not known to be read.
    func unconfirmed(of peer: String) -> Int { peers[peer]?.unconfirmed ?? 0 }

    /// Why a reply of `size` bytes to `peer` must not be sent now, or nil.
    func refusal(ofReply size: Int, to peer: String?) -> String? {
        guard size > Self.smallReply, let peer else { return nil }
        let unconfirmed = peers[peer]?.unconfirmed ?? 0
        // A peer that has read everything may always fetch one document, however large (within the message
        // size limit); the budgets bound what piles up behind it.
        if unconfirmed > 0, unconfirmed + size > Self.peerBudget {
            return "the reply would be \(size) bytes, and \(unconfirmed) bytes of replies to you are not read yet "
                + "(at most \(Self.peerBudget) may be); read them (and let your D-Bus library answer Peer.Ping) first"
        }
        if total + size > Self.totalBudget {
            return "the reply would be \(size) bytes, and clients have \(total) bytes of replies they have not read "
                + "(at most \(Self.totalBudget) in all); try again later"
        }
        return nil
    }

    /// Counts a deferred reply to `peer` as being built, or says why it must not be.
    mutating func startBuilding(for peer: String?) -> String? {
        guard let peer else { return nil }
        let count = building[peer, default: 0]
        guard count < Self.maximumBuilding else {
            return "\(count) replies to you are still being built (at most \(Self.maximumBuilding) at once); "
                + "wait for them before asking for more"
        }
        building[peer] = count + 1
        return nil
    }

    /// A deferred reply to `peer` was built (and sent or refused).
    mutating func finishedBuilding(for peer: String?) {
        guard let peer, let count = building[peer] else { return }
        building[peer] = count > 1 ? count - 1 : nil
    }

    /// Records `size` bytes sent to `peer`; true when a Ping should go to it now.
    mutating func sent(_ size: Int, to peer: String?) -> Bool {
        guard let peer else { return false }
        if peers.count >= Self.maximumPeers, peers[peer] == nil { forgetQuietPeers() }
        total += size
        // One lookup, changed in place: this runs for every reply.
        return Self.record(size, in: &peers[peer, default: Peer()])
    }

    private static func record(_ size: Int, in state: inout Peer) -> Bool {
        state.unconfirmed += size
        guard state.pingMark == nil, state.unconfirmed >= pingThreshold else { return false }
        state.pingMark = state.unconfirmed
        return true
    }

    /// The Ping to `peer` was answered by it: everything sent before it was read.
    mutating func confirmed(_ peer: String) {
        guard var state = peers[peer], let mark = state.pingMark else { return }
        state.unconfirmed -= mark
        total -= mark
        state.pingMark = nil
        peers[peer] = state
    }

    /// The bus holds `queued` bytes for `peer` now: of what was sent up to the question (its mark), at most that
    /// much is unread. Replies sent since stay unconfirmed.
    mutating func measured(_ peer: String, queued: Int) {
        guard var state = peers[peer], let mark = state.pingMark else { return }
        let read = mark - min(mark, max(0, queued))
        state.unconfirmed -= read
        total -= read
        state.pingMark = nil
        peers[peer] = state
    }

    /// Starts the one Ping sent beside the bus's figures (``measured(_:queued:)``); false when one is in flight.
    mutating func startSidePing(_ peer: String) -> Bool {
        guard var state = peers[peer], !state.sidePing, state.unconfirmed > 0 else { return false }
        state.sidePing = true
        peers[peer] = state
        return true
    }

    /// The side Ping ended; `bytes` (what was unconfirmed when it was sent, 0 when it got no answer) were read.
    /// The bus's figures may have confirmed some of them already: never below 0.
    mutating func finishedSidePing(_ peer: String, confirming bytes: Int) {
        guard var state = peers[peer] else { return }
        state.sidePing = false
        let read = min(bytes, state.unconfirmed)
        state.unconfirmed -= read
        total -= read
        peers[peer] = state
    }

    /// The Ping to `peer` got no answer from it: it is gone (forgotten), or it did not answer in time (the
    /// next reply to it sends another).
    mutating func pingFailed(_ peer: String, gone: Bool) {
        guard var state = peers[peer] else { return }
        if gone {
            total -= state.unconfirmed
            peers[peer] = nil
            return
        }
        state.pingMark = nil
        peers[peer] = state
    }

    /// Drops the peers below the Ping threshold with no Ping in flight: what they hold is small, and a peer
    /// that left is otherwise never removed.
    private mutating func forgetQuietPeers() {
        for (name, state) in peers where state.pingMark == nil && state.unconfirmed < Self.pingThreshold {
            total -= state.unconfirmed
            peers[name] = nil
        }
    }
}
