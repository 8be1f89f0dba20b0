import DBusKit
import Synchronization

/// Follows `NameOwnerChanged` for the daemon's name, so losing it is noticed without asking the bus after
/// every call. Subscribed before the daemon starts, so no change is missed.
final class NameWatch: Sendable {
    struct Change: Sendable {
        var oldOwner: String
        var newOwner: String
    }

    private let changes = Mutex<[Change]>([])
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Subscribes on `bus` and starts following.
    init(bus: Bus, name: BusName) async throws {
        let rule = MatchRule(
            sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
            member: try MemberName("NameOwnerChanged"), arguments: [0: name.rawValue])
        let stream = try await bus.signals(matching: rule)
        let follower = Task { [weak self] in
            for await signal in stream where signal.arguments.count == 3 {
                let change = Change(oldOwner: signal.arguments[1].string ?? "", newOwner: signal.arguments[2].string ?? "")
                self?.changes.withLock { $0.append(change) }
            }
        }
        task.withLock { $0 = follower }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// The first change that took the name away from `owner`, if any has been seen.
    func loss(of owner: String) -> Change? {
        changes.withLock { all in all.first { $0.oldOwner == owner } }
    }
}
