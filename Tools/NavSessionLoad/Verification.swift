/// The verifier's findings.
struct Verification {
    /// Problems found (each one line); the run fails when there is any.
    var problems: [String] = []
    /// Acknowledged changes checked against every later restore and the final state.
    var acknowledgedChecked = 0
    /// Acknowledged changes missing after a restart (restored version below the acknowledged one).
    var lost = 0
    /// Changes the subscriber saw (`Changed`, emitted only after journaling) missing after a restart.
    var signalledLost = 0
    /// Window versions acknowledged twice (a version reused after a restart).
    var reused = 0
    /// ``lost`` by the fault that started the restore missing them ("end" for the final state).
    var lostByFault: [String: Int] = [:]
    /// ``reused`` by the fault that started the later of the two instances.
    var reusedByFault: [String: Int] = [:]
    /// The first few lost and reused findings, for the report (all are in ``problems``).
    var firstLost: [String] = []
    var firstReused: [String] = []
    static let examples = 5
    /// Versions present without an acknowledgement: journaled, reply lost in the kill. Filled from the
    /// `Changed` cause when the signal got out, else matched to one of the calls left without a reply.
    var presentWithoutAck = 0
    /// …of which matched to a call left without a reply (signal lost as well).
    var matchedToUnanswered = 0
    /// `Changed` signals checked for order and gaps.
    var signalsChecked = 0
    /// Windows whose restored and final states equal the replay.
    var windowsReplayed = 0
    /// Restore points (window × restart) compared with the replay.
    var restoresCompared = 0

    mutating func problem(_ text: String) {
        problems.append(text)
    }

    /// `count` acknowledged changes lost in the restore after `fault`.
    mutating func lost(_ count: Int, at fault: String, _ text: String) {
        lost += count
        lostByFault[fault, default: 0] += count
        if firstLost.count < Self.examples { firstLost.append(text) }
        problem(text)
    }

    /// A version acknowledged again by the instance `fault` started.
    mutating func reused(at fault: String, _ text: String) {
        reused += 1
        reusedByFault[fault, default: 0] += 1
        if firstReused.count < Self.examples { firstReused.append(text) }
        problem(text)
    }
}
