import DBusTestSupport

/// A fault `navsession-load fault` injects while the clients drive changes. Each one ends with a new daemon
/// instance (a generation) whose restored states are read before any client may call it.
enum Fault: String, Sendable, Hashable, CaseIterable {
    /// SIGKILL, then a new instance on the same state directory.
    case kill
    /// A `navsessiond --replace` on the same state directory and bus name: the running one hands over and exits.
    case replace
    /// A second navsessiond on the same state directory while the first runs, alternately for the same bus name
    /// and for another (`--name`); it should refuse to start. Then the first is SIGKILLed and restarted, so the
    /// restored state shows whether the second one's start cost any acknowledged change.
    case secondDaemon = "second daemon"

    /// `kills` + `replaces` + `secondDaemons` faults in a seeded order.
    static func plan(kills: Int, replaces: Int, secondDaemons: Int, random: inout SplitMix64) -> [Fault] {
        let faults = Array(repeating: Fault.kill, count: kills) + Array(repeating: .replace, count: replaces)
            + Array(repeating: .secondDaemon, count: secondDaemons)
        // One kind alone keeps the seed's kill moments as they were before there were other kinds.
        guard Set(faults).count > 1 else { return faults }
        return faults.shuffled(using: &random)
    }
}
