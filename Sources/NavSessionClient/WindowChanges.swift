import DBusKit
import NavSessionInterface
import NavigationCore

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
    let state: EndBox<EndReason>
    let lifetime: StreamLifetime

    /// Why the sequence finished, once it has; `nil` while it runs.
    public var endReason: EndReason? { state.value }

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
        let state: EndBox<WindowChanges.EndReason>
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
        let state = EndBox<WindowChanges.EndReason>()
        let (events, continuation) = AsyncStream<WindowChange.Changed>.makeStream(
            bufferingPolicy: .bufferingNewest(max(buffering, 1)))
        let subscription = try await DaemonSubscription.open(self)
        let path = window.objectPath
        let task = Task {
            let stop = await subscription.forward { signal in
                if signal.path == path, signal.interface == ObjectPaths.windowInterface,
                   signal.member.rawValue == NavSessionInterface.Window1.changed, let change = WindowChange.Changed(signal.arguments) {
                    continuation.yield(change)
                } else if Self.isRemoval(signal, of: path) {
                    return false
                }
                return true
            }
            switch stop {
            case .handled: state.end(.windowRemoved)
            case .daemonLeft: state.end(.daemonLeft)
            case .connectionClosed: state.end(.connectionClosed)
            case .cancelled: state.end(.cancelled)
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
