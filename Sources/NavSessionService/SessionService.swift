import DBusKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore
import NavigationSession
import Synchronization

/// The session on D-Bus: `org.navsession.Session1` at `/org/navsession/Session1` (with ObjectManager
/// over the windows), `org.navsession.Window1` per window, and `org.freedesktop.Application` at the
/// path derived from the application id.
///
/// A thin layer over NavigationSession's ``Session``: every method decodes its arguments, calls the
/// session through ``perform(on:_:)``, maps a ``SessionError`` to a D-Bus error (``ErrorMapping``) and
/// announces the outcome's events (``announce(_:on:)``).
///
/// ```swift
/// let service = try SessionService(manifest: try Manifest.demo(), stateDirectory: "/tmp/state")
/// try await service.export(on: bus)                     // objects first…
/// _ = try await bus.requestName(try BusName(service.applicationID), options: [.doNotQueue])   // …then the name
/// ```
///
/// Calls are handled on the bus's thread in arrival order; the session sits behind an uncontended
/// lock, so a command costs no actor hop. The session journals each change before its reply.
public final class SessionService: Sendable {
    /// The path prefix of window objects (`/org/navsession/Session1/window/<n>`).
    static let windowPrefix = "/org/navsession/Session1/window/"
    let names: ServiceNames
    let state: Mutex<ServiceState>
    let logger: Logger
    /// The application id (the bus name to own).
    public let applicationID: String
    /// The manifest served: the session's, kept here too so the service reads it without the session's lock; a
    /// reload replaces both (``reloadManifest(fromFile:on:)``, Session1 `ReloadManifest`).
    let manifestBox: Mutex<Manifest>
    var manifest: Manifest { manifestBox.withLock { $0 } }
    /// The path of the window a change was last announced on (``path(of:)``).
    let lastWindowPath = Mutex<(number: WindowNumber, path: ObjectPath)?>(nil)
    /// Whether the manifest served declares guards (``hasGuards``).
    let guardsDeclared: Atomic<Bool>
    private let quitRequests: AsyncStream<Void>.Continuation
    /// Yields when a client calls `ActivateAction("quit")`.
    public let quitRequested: AsyncStream<Void>
    /// The session's limits (fixed at start).
    let limits: SessionLimits
    /// Changes waiting for a guard provider's decision, per window (SessionService+GuardProviders.swift).
    let guardQueues = Mutex<[WindowNumber: GuardQueue]>([:])
    /// Changes of clients whose process the bus has not told yet, per client in arrival order (the guarded path
    /// holds their replies until it has: ``runWhenJoined``). Bounded by the bus's held replies.
    let awaitingProcess = Mutex<[String: [(held: HeldReply, run: @Sendable (isolated Bus) -> Void)]]>([:])
    /// Guards whose provider did not answer its last question in time, until when it is not asked again.
    let unresponsiveGuards = Mutex<[String: ContinuousClock.Instant]>([:])
    /// The questions asked for the `Can*` properties, per window, at the window's version they were about: each is
    /// asked once per version (SessionService+Verdicts.swift).
    let probesAsked = Mutex<[WindowNumber: Set<GuardQuestion>]>([:])
    /// The owner (unique name) of each well-known name a guard declares as its `provider`, as the bus last said.
    let providerNameOwners = Mutex<[String: String]>([:])
    /// The timer of the earliest scheduled batch (SessionService+Scheduled.swift).
    let scheduleTimer = Mutex(ScheduleTimer())
    /// The instance id whose state the daemon keeps, or nil.
    public let instance: String?

    /// Loads the session, restoring the state saved in `stateDirectory` if there is one.
    ///
    /// - Parameter stateDirectory: where ``SessionStore`` keeps the state; `nil` keeps it in memory only.
    /// - Throws: ``SessionError/storageFailed(_:)`` when the directory cannot be used.
    /// - Parameter restoreReason: why the daemon starts when it is told (`--restore-reason`, the SaveRestore portal);
    ///   `nil`: from the state directory's marker (how the last run stopped).
    /// - Parameter instance: the instance id whose state `stateDirectory` holds (Session1 `Instance`), if any.
    public init(
        manifest: Manifest, stateDirectory: String?, logger: Logger = Logger(label: "navsessiond"),
        restoreReason: RestoreReason? = nil, instance: String? = nil
    ) throws(SessionError) {
        do {
            names = try ServiceNames()
        } catch {
            throw .invalidArguments(String(describing: error))
        }
        let store = try stateDirectory.map { directory throws(SessionError) in
            try SessionStore(directory: directory, logger: logger)
        }
        let session = try Session(manifest: manifest, store: store, logger: logger, restoreReason: restoreReason)
        self.instance = instance
        limits = session.limits
        state = Mutex(ServiceState(session: session))
        self.logger = logger
        manifestBox = Mutex(manifest)
        guardsDeclared = Atomic(!manifest.guards.isEmpty)
        applicationID = manifest.applicationID
        (quitRequested, quitRequests) = AsyncStream<Void>.makeStream()
    }

    /// The object path of `org.freedesktop.Application`: the application id with `.` → `/`.
    public var applicationPath: ObjectPath {
        get throws { try ObjectPath("/" + applicationID.split(separator: ".").joined(separator: "/")) }
    }

    /// Exports Session1 (with ObjectManager), every restored window and org.freedesktop.Application,
    /// then watches clients leaving the bus and closes restored windows whose close-on-exit client has left.
    /// Call before requesting the bus name.
    public func export(on bus: Bus) async throws {
        try await exportObjects(on: bus)
        try await watchDepartures(on: bus)
        try await watchArrivals(on: bus)
        try await watchDeclaredProviders(on: bus)
        await checkRestoredOwners(on: bus)
        await armRestoredSchedules(on: bus)
    }

    /// The objects of ``export(on:)``, on the bus thread.
    private func exportObjects(on bus: isolated Bus) throws {
        // Arrays are bounded before decoding (the largest any method needs is a batch or a stack path).
        bus.setIncomingLimits(IncomingLimits(maximumArrayLength: max(limits.maxBatchCommands, limits.graph.maxStackDepth, 1024)))
        bus.setFaultHandler { [logger] cause in
            logger.error("internal fault answered with org.freedesktop.DBus.Error.Failed", metadata: ["cause": "\(cause)"])
        }
        bus.addObjectManager(at: names.sessionPath)
        try bus.export([try sessionInterface()], at: names.sessionPath)
        try bus.export([try applicationInterface()], at: try applicationPath)
        for number in windowNumbers() {
            try bus.export([try windowInterface()], at: try self.path(of: number))
        }
    }

    /// The open windows' numbers, in opening order.
    func windowNumbers() -> [WindowNumber] { state.withLock { $0.session.windows.map(\.number) } }

    /// The object path of window `number`.
    func path(of number: WindowNumber) throws(ValidationError) -> ObjectPath {
        // A change announces on its window's path two or three times: the last one built is kept.
        if let last = lastWindowPath.withLock({ $0 }), last.number == number { return last.path }
        let path = try names.windowsPath.appending(DirectJSON.decimal(Int(number)))
        lastWindowPath.withLock { $0 = (number, path) }
        return path
    }

    /// The window number of `path`, or `UnknownObject`.
    static func number(of path: ObjectPath) throws(BusError) -> WindowNumber {
        // Every window call starts here: one pass over the bytes, no generic collection algorithms.
        var text = path.rawValue
        let number = text.withUTF8 { bytes -> WindowNumber? in
            let prefix = windowPrefixBytes
            guard bytes.count > prefix.count, bytes.count <= prefix.count + 10 else { return nil }
            for index in 0..<prefix.count where bytes[index] != prefix[index] { return nil }
            var value: UInt64 = 0
            for index in prefix.count..<bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + UInt64(digit)
            }
            guard value > 0, value <= UInt64(WindowNumber.max) else { return nil }
            return WindowNumber(value)
        }
        guard let number else { throw BusError(.unknownObject, "no window at \(path.rawValue)") }
        return number
    }

    private static let windowPrefixBytes = Array(windowPrefix.utf8)

    /// Runs `body` on the session under its lock, mapping errors to D-Bus errors.
    func withSession<T: Sendable>(_ body: (inout ServiceState) throws -> T) throws(BusError) -> T {
        do {
            return try state.withLock { state throws in try body(&state) }
        } catch {
            throw ErrorMapping.busError(for: error)
        }
    }

    /// Runs a session operation on the bus thread and announces its outcome: the one way every method and
    /// every change from elsewhere (a client leaving the bus) changes the session.
    ///
    /// Isolated to the bus: the change, its signals and the reply are made in one pass on the bus thread,
    /// without a task or a suspension. The session's lock is held for the change only; its signals (`Changed`
    /// first, then the other events, then `PropertiesChanged`) follow in order because every change is made on
    /// this one thread.
    /// - Returns: the outcome (the change is made, and announced, even when the caller cannot build its reply).
    @discardableResult
    func perform(on bus: isolated Bus, _ body: (Session) throws -> SessionOutcome) throws(BusError) -> SessionOutcome {
        let outcome: SessionOutcome
        // The earliest scheduled deadline when it moved: compared under the lock already held,
        // so an operation that schedules nothing costs no other lock.
        var moved: Int64??
        let result = try withSession { state in
            let session = state.session
            let result = session.change(asking: false) { try body(session) }
            let deadline = session.nextScheduledDeadline
            if deadline != state.armedDeadline {
                state.armedDeadline = deadline
                moved = .some(deadline)
            }
            return result
        }
        if result.hasSideEffects { announceSideEffects(of: result, on: bus) }
        switch result.kind {
        case .applied(let applied):
            outcome = applied
        case .refused(let error):
            if let deadline = moved { rearmScheduleTimer(deadline, on: bus) }
            throw ErrorMapping.busError(for: error)
        case .asks, .queued:
            // Only a change made with `asking: true` can wait for a provider.
            if let deadline = moved { rearmScheduleTimer(deadline, on: bus) }
            throw BusError(.failed, "a change that may not wait for a guard provider asked one")
        }
        announce(outcome, on: bus)
        if let deadline = moved { rearmScheduleTimer(deadline, on: bus) }
        return outcome
    }

    /// Writes a snapshot of the whole session and empties the journal (a clean shutdown); the next start
    /// then loads one file instead of replaying the journal.
    /// - Throws: ``SessionError/storageFailed(_:)``; the journal still holds every change then.
    public func save() throws(BusError) {
        try withSession { state in try state.session.close() }
    }

    /// Makes everything durable without stopping (the SaveRestore portal's `SaveHint`).
    public func checkpoint() throws(BusError) {
        try withSession { state in try state.session.checkpoint() }
    }

    /// Reloads the manifest from `path` (`SIGHUP`), as Session1 `ReloadManifest` does, and announces it.
    /// - Throws: ``ManifestError`` (unreadable or invalid: nothing changes), a `BusError` (`StorageFailed`).
    public func reloadManifest(fromFile path: String, on bus: isolated Bus) throws {
        let text = try Manifest.text(ofFile: path)
        try perform(on: bus) { session in try self.reload(session, text) }
    }

    /// A reload of `session` to `text`, the service's copy of the manifest kept in step.
    func reload(_ session: Session, _ text: String) throws -> SessionOutcome {
        let outcome = try session.reloadManifest(text)
        manifestBox.withLock { $0 = session.manifest }
        guardsDeclared.store(!session.manifest.guards.isEmpty, ordering: .relaxed)
        return outcome
    }

    /// Asks the daemon to quit (`ActivateAction("quit")`).
    func requestQuit() { quitRequests.yield() }
}

/// What the service keeps under its lock: the session and the last announced Window1 property values.
struct ServiceState {
    let session: Session
    /// Property values as last announced, per window (compared after each operation).
    var properties: [WindowNumber: WindowProperties] = [:]
    /// Clients following one model each (per-model observation; SessionService+Followers.swift).
    var followers = ModelFollowers()
    /// The scheduled deadline the service's timer is armed for.
    var armedDeadline: Int64?

    init(session: Session) {
        self.session = session
        for window in session.windows {
            properties[window.number] = WindowProperties(window, session: session)
        }
    }

    /// The current properties of window `number` (computed if not cached).
    mutating func properties(of number: WindowNumber) throws(SessionError) -> WindowProperties {
        if let cached = properties[number] { return cached }
        let fresh = WindowProperties(try session.window(number), session: session)
        properties[number] = fresh
        return fresh
    }

    /// Updates the cache for every window `outcome` touched; returns what each window's `PropertiesChanged`
    /// carries (windows whose properties did not change are absent), and the guard providers' questions the changed
    /// windows' new `Can*` values were read without. The properties are moved in and out of the cache, never
    /// copied (a copy is a retain and a release for each of their values).
    mutating func refresh(after outcome: SessionOutcome) -> ([WindowNumber: WindowPropertyChanges], [GuardQuestion]) {
        // The window an operation addressed may change without a new version (a deep link now waits in it).
        var touched: [WindowNumber] = outcome.window.map { [$0] } ?? []
        var routesMoved: [WindowNumber] = []
        for event in outcome.events {
            switch event {
            case .changed(let number, let change, _, _):
                if !touched.contains(number) { touched.append(number) }
                // Every mutation of the route view (paths, slots, tabs, switches, roots) records a graph step.
                if !change.steps.isEmpty, !routesMoved.contains(number) { routesMoved.append(number) }
            case .windowOpened(let number, _), .grouped(let number):
                if !touched.contains(number) { touched.append(number) }
            case .windowClosed(let number, _):
                properties[number] = nil
            default:
                break
            }
        }
        var changes: [WindowNumber: WindowPropertyChanges] = [:]
        var probes: [GuardQuestion] = []
        for number in touched {
            guard let window = try? session.window(number) else {
                properties[number] = nil
                continue
            }
            let after = WindowProperties(window, session: session)
            if let before = properties.removeValue(forKey: number) {
                let change = WindowPropertyChanges(
                    changed: after.changes(from: before), routesInvalidated: routesMoved.contains(number))
                if !change.isEmpty {
                    changes[number] = change
                    if let probe = after.probe { probes.append(probe) }
                }
            }
            properties[number] = after
        }
        return (changes, probes)
    }
}
