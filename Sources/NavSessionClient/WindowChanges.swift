import DBusKit
import NavigationCore
import Synchronization

/// The changes of one window as an `AsyncSequence` (``NavSessionClient/changes(of:buffering:)``).
///
/// The stream never hands out an inconsistent picture. It subscribes to `Changed` before it reads the
/// window's state (``initialSnapshot``), so no change falls between the two; it then yields each change
/// whose `previousVersion` is the last version it saw. When changes were missed — the consumer fell more
/// than `buffering` changes behind, or the daemon skipped a version — it reads the state again itself and
/// yields ``WindowChange/resynchronized(_:)``, so the caller knows to start over from that snapshot.
///
/// The sequence finishes (returns `nil`) when the window goes (`InterfacesRemoved` for its path, or the
/// object vanishes), when the daemon's name loses its owner, when the connection closes or when the
/// consuming task is cancelled; ``endReason`` says which. It throws ``NavSessionError`` only when a
/// resynchronising `GetState` fails for another reason. One consumer per sequence.
///
/// ```swift
/// let changes = try await client.changes(of: window)
/// print("starting at", changes.initialSnapshot?.version ?? -1)
/// for try await change in changes {
///     switch change {
///     case .changed(let event): print(event.version, event.causeJSON)
///     case .resynchronized(let snapshot): print("missed changes; now at", snapshot.version)
///     }
/// }
/// print("ended:", changes.endReason.map { "\($0)" } ?? "-")
/// ```
public struct WindowChanges: AsyncSequence, Sendable {
    /// One change or a resynchronisation.
    public typealias Element = WindowChange
    /// The only error: a failed resynchronisation.
    public typealias Failure = NavSessionError

    /// Why the sequence finished.
    public enum EndReason: Sendable, Hashable {
        /// The window was dismissed or closed (or did not exist when the stream started).
        case windowRemoved
        /// The daemon's name lost its owner (the daemon exited or was replaced).
        case daemonLeft
        /// The connection to the bus closed.
        case connectionClosed
        /// The consumer stopped (its task was cancelled).
        case cancelled
    }

    /// The window followed.
    public let window: WindowProxy
    /// The window's state read right after subscribing; `nil` when the window did not exist then (the
    /// sequence is then empty and ``endReason`` is ``EndReason/windowRemoved``).
    public let initialSnapshot: WindowSnapshot?

    let events: AsyncStream<WindowChange.Changed>
    let state: StreamState
    let lifetime: StreamLifetime

    /// Why the sequence finished, once it has; `nil` while it runs.
    public var endReason: EndReason? { state.endReason }

    /// Starts iterating. A sequence has one consumer: iterate it once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            events: events.makeAsyncIterator(), window: window, state: state, lifetime: lifetime,
            lastVersion: initialSnapshot.map { UInt64(clamping: $0.version) } ?? 0)
    }

    /// The iterator: applies the gap rule to each buffered `Changed`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var events: AsyncStream<WindowChange.Changed>.Iterator
        let window: WindowProxy
        let state: StreamState
        let lifetime: StreamLifetime
        var lastVersion: UInt64

        /// The next change, a resynchronisation, or `nil` at the end.
        public mutating func next() async throws(NavSessionError) -> WindowChange? {
            while let change = await events.next() {
                if change.version <= lastVersion { continue }
                if change.previousVersion != lastVersion {
                    let snapshot: WindowSnapshot
                    do {
                        snapshot = try await window.getState()
                    } catch where error.isUnknownObject {
                        state.end(.windowRemoved)
                        return nil
                    }
                    lastVersion = Swift.max(UInt64(clamping: snapshot.version), lastVersion)
                    return .resynchronized(snapshot)
                }
                lastVersion = change.version
                return .changed(change)
            }
            state.end(Task.isCancelled ? .cancelled : .connectionClosed)
            return nil
        }
    }
}

/// Why one change stream ended, shared by the forwarding task and the consumer.
final class StreamState: Sendable {
    private let reason = Mutex<WindowChanges.EndReason?>(nil)

    /// The first recorded reason.
    var endReason: WindowChanges.EndReason? { reason.withLock { $0 } }

    /// Records why the stream ended; the first reason wins.
    func end(_ why: WindowChanges.EndReason) {
        reason.withLock { if $0 == nil { $0 = why } }
    }
}

/// Owned only by the sequence and its iterator (never by the forwarding task): when the last of them goes
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

extension NavSessionClient {
    /// Follows a window's changes: an `AsyncSequence` of ``WindowChange`` that subscribes before it reads the
    /// window's state, detects missed changes and resynchronises itself, and finishes when the window or the
    /// daemon goes (see ``WindowChanges``).
    ///
    /// When this returns, the subscription is active: every change after ``WindowChanges/initialSnapshot``
    /// reaches the sequence.
    /// - Parameters:
    ///   - window: the window to follow.
    ///   - buffering: how many changes are kept for a slow consumer; past that the oldest are dropped and
    ///     the consumer gets one ``WindowChange/resynchronized(_:)`` instead.
    /// - Throws: ``NavSessionError/nameHasNoOwner(_:)`` when no daemon runs; connection errors.
    public func changes(of window: WindowProxy, buffering: Int = 1024) async throws(NavSessionError)
        -> WindowChanges
    {
        let state = StreamState()
        let (events, continuation) = AsyncStream<WindowChange.Changed>.makeStream(
            bufferingPolicy: .bufferingNewest(max(buffering, 1)))
        // The daemon's departure, subscribed before its unique name is read so a replacement is noticed.
        let owners = try await mappingErrors {
            try await bus.signals(matching: MatchRule(
                sender: .bus, path: ObjectPaths.bus, interface: .bus, member: try MemberName("NameOwnerChanged"),
                arguments: [0: destination.rawValue]))
        }
        let owner = try await daemonOwner()
        // One rule for the window's Changed and the session's InterfacesRemoved keeps them in order.
        let signals = try await mappingErrors {
            try await bus.signals(matching: MatchRule(sender: owner, pathNamespace: ObjectPaths.session))
        }
        let path = window.objectPath
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await signal in signals {
                        if signal.path == path, signal.interface == ObjectPaths.windowInterface,
                           signal.member.rawValue == "Changed", let change = WindowChange.Changed(signal.arguments) {
                            continuation.yield(change)
                        } else if Self.isRemoval(signal, of: path) {
                            state.end(.windowRemoved)
                            return
                        }
                    }
                    state.end(Task.isCancelled ? .cancelled : .connectionClosed)
                }
                group.addTask {
                    for await signal in owners where signal.arguments.count == 3 {
                        if signal.arguments[1].string == owner.rawValue {
                            state.end(.daemonLeft)
                            return
                        }
                    }
                    state.end(Task.isCancelled ? .cancelled : .connectionClosed)
                }
                await group.next()
                group.cancelAll()
            }
            continuation.finish()
        }
        let lifetime = StreamLifetime(task)
        continuation.onTermination = { _ in task.cancel() }

        let initial: WindowSnapshot?
        do {
            initial = try await window.getState()
        } catch where error.isUnknownObject {
            state.end(.windowRemoved)
            task.cancel()
            initial = nil
        } catch {
            task.cancel()
            throw error
        }
        return WindowChanges(
            window: window, initialSnapshot: initial, events: events, state: state, lifetime: lifetime)
    }

    /// Whether `signal` is the ObjectManager's `InterfacesRemoved` for the window at `path`.
    static func isRemoval(_ signal: Signal, of path: ObjectPath) -> Bool {
        signal.path == ObjectPaths.session && signal.interface == .objectManager
            && signal.member.rawValue == "InterfacesRemoved" && signal.arguments.first?.objectPath == path
            && signal.arguments.count == 2
            && signal.arguments[1].arrayElements?.contains(.string(ObjectPaths.windowInterface.rawValue)) == true
    }
}
