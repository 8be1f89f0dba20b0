import DBusKit
import Synchronization

/// Every signal one daemon instance emits under `/org/navsession/Session1` — Window1 `Changed`, `Message`,
/// `OpenExternalURL`, `Effect`, PropertiesChanged, ObjectManager `InterfacesAdded`/`InterfacesRemoved` — as
/// DBusKit `Signal`s, in the order they were sent (``NavSessionClient/sessionSignals()``).
///
/// For tools that show or record everything (`navsessionctl watch`). To follow one window, prefer
/// ``NavSessionClient/changes(of:buffering:)``, which also detects missed changes. The sequence finishes when
/// the daemon's name loses its owner (the instance exited or was replaced), when the connection closes or when
/// the consuming task is cancelled; ``endReason`` says which. One consumer per sequence.
///
/// ```swift
/// let signals = try await client.sessionSignals()
/// for await signal in signals { print(signal.path.rawValue, signal.member.rawValue) }
/// if signals.endReason == .daemonLeft { print("the daemon left") }
/// ```
public struct SessionSignals: AsyncSequence, Sendable {
    /// One signal.
    public typealias Element = Signal
    /// The sequence does not throw.
    public typealias Failure = Never

    /// Why the sequence finished.
    public enum EndReason: Sendable, Hashable {
        /// The daemon's name lost its owner (the daemon exited or was replaced).
        case daemonLeft
        /// The connection to the bus closed.
        case connectionClosed
        /// The consumer stopped (its task was cancelled).
        case cancelled
    }

    /// The unique bus name (`:1.42`) of the daemon instance followed.
    public let daemonUniqueName: String

    let stream: AsyncStream<Signal>
    let reason: EndBox<EndReason>
    let lifetime: StreamLifetime

    /// Why the sequence finished, once it has; `nil` while it runs.
    public var endReason: EndReason? { reason.value }

    /// Starts iterating. A sequence has one consumer: iterate it once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), lifetime: lifetime)
    }

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Signal>.Iterator
        let lifetime: StreamLifetime

        /// The next signal, or `nil` at the end.
        public mutating func next() async -> Signal? {
            await base.next()
        }
    }
}

/// The first reason a stream ended, shared by its forwarding task and its consumer.
final class EndBox<Reason: Sendable>: Sendable {
    private let reason = Mutex<Reason?>(nil)

    /// The first recorded reason.
    var value: Reason? { reason.withLock { $0 } }

    /// Records why the stream ended; the first reason wins.
    func end(_ why: Reason) {
        reason.withLock { if $0 == nil { $0 = why } }
    }
}

/// Owned only by a sequence and its iterator (never by the forwarding task): when the last of them goes
/// away, the task that feeds the stream is cancelled, which removes its match rules from the bus.
final class StreamLifetime: Sendable {
    private let forwarder: Task<Void, Never>

    init(_ forwarder: Task<Void, Never>) {
        self.forwarder = forwarder
    }

    deinit {
        forwarder.cancel()
    }
}

/// The subscriptions that follow one daemon instance: its departure (`NameOwnerChanged`) and its signals
/// under the session path (one match rule, so their order is kept).
struct DaemonSubscription: Sendable {
    /// How forwarding stopped.
    enum Stop: Sendable {
        /// The handler asked to stop.
        case handled
        /// The daemon's name lost this owner.
        case daemonLeft
        /// The connection closed.
        case connectionClosed
        /// The forwarding task was cancelled.
        case cancelled
    }

    let owner: BusName
    let signals: AsyncStream<Signal>
    let departures: AsyncStream<Signal>

    /// Subscribes to the departure first, then reads the owner, then subscribes to its signals, so a
    /// replacement at any moment is noticed.
    static func open(_ client: NavSessionClient) async throws(NavSessionError) -> DaemonSubscription {
        let bus = client.bus
        let name = client.destination.rawValue
        let departures = try await mappingErrors {
            try await bus.signals(matching: MatchRule(
                sender: .bus, path: ObjectPaths.bus, interface: .bus, member: try MemberName("NameOwnerChanged"),
                arguments: [0: name]))
        }
        let owner = try await client.daemonOwner()
        let signals = try await mappingErrors {
            try await bus.signals(matching: MatchRule(sender: owner, pathNamespace: ObjectPaths.session))
        }
        return DaemonSubscription(owner: owner, signals: signals, departures: departures)
    }

    /// Hands each signal to `handle` (which returns false to stop) until the daemon leaves, the connection
    /// closes or the task is cancelled.
    func forward(_ handle: @escaping @Sendable (Signal) -> Bool) async -> Stop {
        let owner = owner
        let signals = signals
        let departures = departures
        return await withTaskGroup(of: Stop.self) { group in
            group.addTask {
                for await signal in signals where !handle(signal) { return .handled }
                return Task.isCancelled ? .cancelled : .connectionClosed
            }
            group.addTask {
                for await signal in departures where signal.arguments.count == 3 {
                    if signal.arguments[1].string == owner.rawValue { return .daemonLeft }
                }
                return Task.isCancelled ? .cancelled : .connectionClosed
            }
            let stop = await group.next() ?? .cancelled
            group.cancelAll()
            return stop
        }
    }
}

extension NavSessionClient {
    /// Follows every signal of the daemon instance that owns ``applicationID`` now (see ``SessionSignals``).
    ///
    /// When this returns, the subscription is active.
    /// - Throws: ``NavSessionError/nameHasNoOwner(_:)`` when no daemon runs; connection errors.
    public func sessionSignals() async throws(NavSessionError) -> SessionSignals {
        let subscription = try await DaemonSubscription.open(self)
        let reason = EndBox<SessionSignals.EndReason>()
        let (stream, continuation) = AsyncStream<Signal>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            switch await subscription.forward({ continuation.yield($0); return true }) {
            case .daemonLeft: reason.end(.daemonLeft)
            case .connectionClosed, .handled: reason.end(.connectionClosed)
            case .cancelled: reason.end(.cancelled)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return SessionSignals(
            daemonUniqueName: subscription.owner.rawValue, stream: stream, reason: reason,
            lifetime: StreamLifetime(task))
    }
}
