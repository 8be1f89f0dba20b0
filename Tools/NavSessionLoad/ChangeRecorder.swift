import DBusKit
import Foundation
import Synchronization

/// One `Window1.Changed` signal as the subscriber received it.
struct ChangeRecord: Sendable {
    var window: UInt64
    var version: UInt64
    var previous: UInt64
    /// The unique name of the daemon instance that emitted it.
    var sender: String
    var cause: String
}

/// The subscriber: its own connection, recording every `Changed` signal of every window in arrival order.
final class ChangeRecorder: Sendable {
    private let records = Mutex<[ChangeRecord]>([])
    /// The subscriber's own connection, kept open for the recorder's lifetime.
    let connection: Bus
    /// Signals received per sender, for "kill after n more changes".
    let counts = Watched<[String: Int]>([:])

    private init(connection: Bus) {
        self.connection = connection
    }

    /// Subscribes on `bus` (active when this returns) and records until the connection closes.
    static func start(on bus: Bus) async throws -> ChangeRecorder {
        let recorder = ChangeRecorder(connection: bus)
        let signals = try await bus.signals(
            matching: MatchRule(
                interface: try InterfaceName(LoadCommand.windowInterface), member: try MemberName("Changed")))
        Task {
            for await signal in signals { recorder.record(signal) }
        }
        return recorder
    }

    private func record(_ signal: Signal) {
        let arguments = signal.arguments
        let number = signal.path.rawValue.split(separator: "/").last.flatMap { UInt64($0) } ?? 0
        let sender = signal.sender?.rawValue ?? ""
        let record = ChangeRecord(
            window: number, version: arguments.first?.uint64 ?? 0,
            previous: arguments.count > 1 ? arguments[1].uint64 ?? 0 : 0, sender: sender,
            cause: arguments.count > 2 ? arguments[2].string ?? "" : "")
        records.withLock { $0.append(record) }
        counts.update { $0[sender, default: 0] += 1 }
    }

    /// Everything received so far.
    var all: [ChangeRecord] { records.withLock { $0 } }

    /// Waits until `sender` has emitted `count` signals in all, bounded.
    func wait(for count: Int, from sender: String, within timeout: Duration) async -> Bool {
        await counts.wait(within: timeout, until: { $0[sender, default: 0] >= count }) != nil
    }
}
