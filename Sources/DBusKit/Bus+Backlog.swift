/// How much of what this connection sent the bus still holds for recipients that have not read it.
///
/// dbus-daemon keeps a message until every recipient has read it, and counts it until then against the
/// sender's `max_incoming_bytes` (127 MiB compiled in): a broadcast signal that one subscriber never reads
/// stays counted for as long as that subscriber stays connected. Once the count reaches the limit, the bus
/// stops reading this connection, and every client of the service waits. Replies are bounded per peer
/// (``ReplyLedger``); signals have no known recipient, so the bus is asked
/// (`org.freedesktop.DBus.Debug.Stats.GetConnectionStats`, `IncomingBytes` of our own connection) after every
/// ``backlogSampleInterval`` bytes of signals, and every ``backlogResampleDelay`` while the backlog is high.
/// A bus without the Stats interface (it is a build option of dbus-daemon, on in Debian's) is not asked again.
extension Bus {
    /// The backlog above which ``isBacklogged`` holds.
    public static let backlogLimit = 32 << 20
    /// Signal bytes sent between two questions to the bus.
    static let backlogSampleInterval = 2 << 20
    /// How soon the bus is asked again while the backlog is high.
    static let backlogResampleDelay: Duration = .milliseconds(200)

    /// Whether the bus, when last asked, held at least ``backlogLimit`` bytes of this connection's messages
    /// for recipients that have not read them. A service refuses what would add to it (bulk signals, large
    /// replies) until it is below again.
    public var isBacklogged: Bool { backlog.bytes >= Self.backlogLimit }

    /// The bytes the bus held for unread recipients when last asked (0 before the first answer, or when the
    /// bus cannot say).
    public var backlogBytes: Int { backlog.bytes }

    /// Counts `size` bytes of a signal; asks the bus when enough were sent since it last did.
    func noteSignal(_ size: Int) {
        guard backlog.available else { return }
        backlog.sinceSample += size
        if backlog.sinceSample >= Self.backlogSampleInterval { sampleBacklog() }
    }

    /// Asks the bus for the backlog once (none if a question is in flight), and again after
    /// ``backlogResampleDelay`` for as long as it is high.
    func sampleBacklog() {
        guard backlog.available, !backlog.sampling, let me = uniqueName else { return }
        backlog.sampling = true
        backlog.sinceSample = 0
        Task {
            var held: Int?
            do {
                let reply = try await call(
                    destination: .bus, path: ObjectPath(trusted: "/org/freedesktop/DBus"),
                    interface: InterfaceName(trusted: "org.freedesktop.DBus.Debug.Stats"),
                    member: MemberName(trusted: "GetConnectionStats"), arguments: [.string(me.rawValue)],
                    timeout: .seconds(5))
                held = reply.first?.dictionaryEntries?.first { $0.key.string == "IncomingBytes" }
                    .flatMap { $0.value.variantValue?.uint32 }.map(Int.init)
                if held == nil { backlog.available = false }
            } catch let error as BusError where error.name != .noReply {
                // No Stats interface, or not for us: the signal budget then rests on the callers' own limits.
                backlog.available = false
            } catch {
                // No answer in time: ask again after the next interval.
            }
            backlog.bytes = held ?? backlog.bytes
            backlog.sampling = false
            if isBacklogged {
                try? await Task.sleep(for: Self.backlogResampleDelay)
                sampleBacklog()
            }
        }
    }
}

/// ``Bus``'s view of its backlog at the bus (``Bus/isBacklogged``).
struct Backlog {
    var bytes = 0
    var sinceSample = 0
    var sampling = false
    var available = true
    /// Whether the bus answers `GetConnectionStats` for other connections (what it holds for a peer).
    var peerStatsAvailable = true
}
