import DBusKit
import DBusTestSupport
import Foundation
import Synchronization

/// `--misbehaving-provider`: a guard provider on a connection of its own, registered for every guard the
/// manifest declares, that answers each `org.navsession.GuardProvider1.Decide` at random (Docs/fuzzing-dbus.md):
/// allow, deny, a valid or an invalid redirect, garbage (wrong types, an unknown verdict, a huge string), an
/// error reply, slowly (past the guard's deadline), or never. The fuzzer's calls make it unregister,
/// re-register, and drop its connection and come back (``CallGenerator``'s provider calls).
///
/// The answers are drawn from the fuzzer's seed, in the order the questions arrive; whether a slow answer beats
/// its deadline depends on timing, so a run with a provider is not exactly repeatable.
final class MisbehavingProvider: Sendable {
    /// The kinds of answer, as counted in the summary.
    enum Answer: String, CaseIterable, Sendable {
        case allow, deny, redirect, badRedirect = "bad-redirect", wrongTypes = "wrong-types"
        case unknownVerdict = "unknown-verdict", huge, error, slow, never
    }

    struct Counts: Sendable {
        var questions = 0
        var answers: [Answer: Int] = [:]
        var reconnects = 0
    }

    static let path = "/org/navsession/GuardProvider1"
    static let interface = "org.navsession.GuardProvider1"
    /// Replies held without an answer at most at once; past it a "never" answers slowly instead.
    static let maximumNeverAnswered = 64

    let address: String
    let destination: BusName
    let guards: [String]
    /// The longest guard deadline: a slow answer comes after it.
    let deadline: Duration
    private let state: Mutex<(random: SplitMix64, counts: Counts, never: Int)>
    private let connection = Mutex<Bus?>(nil)

    init(address: String, destination: BusName, guards: [String], deadline: Duration, seed: UInt64) {
        self.address = address
        self.destination = destination
        self.guards = guards
        self.deadline = deadline
        // A stream of its own, so the calls the generator makes do not depend on the questions asked.
        state = Mutex((SplitMix64(seed: seed ^ 0x6A09_E667_F3BC_C908), Counts(), 0))
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// The provider's current connection (nil while it is away).
    var bus: Bus? { connection.withLock { $0 } }

    /// Connects, exports GuardProvider1 and registers for every guard (a registration refused because the
    /// guard is taken, e.g. while the bus has not yet told the daemon that our previous connection left, is
    /// left as it is: a later provider call registers again).
    func connect() async throws {
        let bus = try await Bus.connect(.address(address))
        try await bus.export([try Interface(Self.interface, methods: [try decideMethod()])], at: try ObjectPath(Self.path))
        connection.withLock { $0 = bus }
        state.withLock { $0.counts.reconnects += 1 }
        for name in guards {
            _ = try? await bus.call(
                destination: destination, path: try ObjectPath("/org/navsession/Session1"),
                interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("RegisterGuard"),
                arguments: [.string(name)], timeout: .seconds(10))
        }
    }

    /// Drops the connection (its registrations and unanswered questions go with it).
    func disconnect() async {
        let bus = connection.withLock { bus -> Bus? in
            defer { bus = nil }
            return bus
        }
        state.withLock { $0.never = 0 }
        await bus?.close()
    }

    private func decideMethod() throws -> Interface.Method {
        typealias A = Interface.Argument
        let inputs = [
            A("guard", .string), A("window", .objectPath), A("version", .uint64), A("cause_json", .string),
            A("entered_json", .string), A("left_json", .string),
        ]
        let outputs = [A("verdict", .string), A("reason", .string), A("redirect_json", .string)]
        return try Interface.Method.synchronous("Decide", inputs: inputs, outputs: outputs) { [self] call, bus in
            let (answer, detail) = draw()
            switch answer {
            case .allow: return .values([.string("allow"), .string(""), .string("")])
            case .deny: return .values([.string("deny"), .string("fuzz says no \(detail)"), .string("")])
            case .redirect:
                let batches = [
                    #"[{"command":"stackDropLast"}]"#, #"[{"command":"dismiss"}]"#,
                    #"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#,
                    #"[{"command":"stackAppend","models":[{"screen":"profile"}]}]"#, "[]",
                ]
                return .values([.string("redirect"), .string(""), .string(batches[detail % batches.count])])
            case .badRedirect:
                let batches = ["[{", "{}", #"[{"command":"nope"}]"#, "null", #"[{"command":"dismiss","x":1}]"#, "\u{0}"]
                return .values([.string("redirect"), .string(""), .string(batches[detail % batches.count])])
            case .unknownVerdict:
                let verdicts = ["maybe", "", "ALLOW", "allow ", "deny\u{0}", "redirect"]
                return .values([.string(verdicts[detail % verdicts.count]), .string(""), .string("")])
            case .huge:
                let text = String(repeating: "x", count: 1 << (10 + detail % 11))
                return .values([.string(detail % 2 == 0 ? text : "deny"), .string(text), .string(text)])
            case .wrongTypes:
                let held = try bus.holdReply(to: call, outputs: [.uint32, .string])
                bus.sendHeldReply(held, values: [.uint32(UInt32(detail)), .string("garbage")])
                return .held
            case .error:
                let name = ["org.example.Provider.Broken", "org.freedesktop.DBus.Error.Failed",
                            "org.freedesktop.DBus.Error.NoMemory"][detail % 3]
                throw BusError(try ErrorName(name), "the provider fails on purpose")
            case .slow:
                let held = try bus.holdReply(to: call, outputs: [.string, .string, .string])
                let delay = deadline + .milliseconds(50 + detail % 400)
                Task {
                    try? await Task.sleep(for: delay)
                    bus.sendHeldReply(held, values: [.string("allow"), .string(""), .string("")])
                }
                return .held
            case .never:
                // Held and never sent: dropped unsent when the connection closes.
                _ = try bus.holdReply(to: call, outputs: [.string, .string, .string])
                return .held
            }
        }
    }

    /// The next answer and a number to vary it with; counts the question.
    private func draw() -> (Answer, Int) {
        state.withLock { state in
            state.counts.questions += 1
            let weights: [Double] = [4, 3, 2, 1, 1, 1, 0.5, 1, 1, 0.5]
            var answer = Answer.allCases[state.random.weighted(weights)]
            if answer == .never {
                if state.never >= Self.maximumNeverAnswered { answer = .slow } else { state.never += 1 }
            }
            state.counts.answers[answer, default: 0] += 1
            return (answer, state.random.int(0...1_000_000))
        }
    }
}
