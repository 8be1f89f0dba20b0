import DBusKit
import Foundation
import Logging
import NavigationCore
import NavigationSession
import Synchronization

/// The session on D-Bus: `org.navsession.Session1` at `/org/navsession/Session1` (with ObjectManager
/// over the windows), `org.navsession.Window1` per window, and `org.freedesktop.Application` at the
/// path derived from the application id.
///
/// ```swift
/// let service = try SessionService(manifest: try DemoManifest.load(), stateDirectory: "/tmp/state")
/// try await service.export(on: bus)                     // objects first…
/// _ = try await bus.requestName(try BusName(service.applicationID), options: [.doNotQueue])   // …then the name
/// ```
///
/// Calls are handled on the bus's thread in arrival order; the session sits behind an uncontended
/// lock, so a command costs no actor hop. Each acknowledged change is journaled before its reply.
public final class SessionService: Sendable {
    /// The path prefix of window objects (`/org/navsession/Session1/window/<n>`).
    static let windowPrefix = "/org/navsession/Session1/window/"
    let names: ServiceNames

    let core: Mutex<SessionCore>
    let logger: Logger
    /// The application id (the bus name to own).
    public let applicationID: String
    /// The scene names, for the `Scenes` property.
    let sceneNames: [String]
    let defaultScene: String
    let manifest: Manifest
    private let quitRequests: AsyncStream<Void>.Continuation
    /// Yields when a client calls `ActivateAction("quit")`.
    public let quitRequested: AsyncStream<Void>
    let watchedClients = Mutex<Set<String>>([])

    /// Loads the session (restoring `stateDirectory`'s journal if there is one).
    ///
    /// - Parameter stateDirectory: where the journal lives; `nil` keeps the session in memory only.
    /// - Throws: ``ServiceError/persistenceFailed(_:)`` when the directory cannot be used.
    public init(manifest: Manifest, stateDirectory: String?, logger: Logger = Logger(label: "navsessiond"))
        throws(ServiceError)
    {
        do {
            names = try ServiceNames()
        } catch {
            throw .invalidArguments(String(describing: error))
        }
        core = Mutex(try SessionCore(manifest: manifest, stateDirectory: stateDirectory, logger: logger))
        self.logger = logger
        self.manifest = manifest
        applicationID = manifest.applicationID
        sceneNames = manifest.sceneNames
        defaultScene = manifest.defaultSceneName
        (quitRequested, quitRequests) = AsyncStream<Void>.makeStream()
    }

    /// The object path of `org.freedesktop.Application`: the application id with `.` → `/`.
    public var applicationPath: ObjectPath {
        get throws { try ObjectPath("/" + applicationID.split(separator: ".").joined(separator: "/")) }
    }

    /// Exports Session1 (with ObjectManager), every restored window and org.freedesktop.Application.
    /// Call before requesting the bus name.
    public func export(on bus: Bus) async throws {
        await bus.addObjectManager(at: names.sessionPath)
        try await bus.export([try sessionInterface()], at: names.sessionPath)
        try await bus.export([try applicationInterface()], at: try applicationPath)
        for number in windowNumbers() {
            try await bus.export([try windowInterface()], at: try Self.path(of: number))
        }
    }

    /// The open windows' numbers, in opening order.
    func windowNumbers() -> [Int] { core.withLock { $0.order } }

    /// The object path of window `number`.
    static func path(of number: Int) throws -> ObjectPath { try ObjectPath(windowPrefix + String(number)) }

    /// The window number of `path`, or `UnknownObject`.
    static func number(of path: ObjectPath) throws(ServiceError) -> Int {
        let text = path.rawValue
        guard text.hasPrefix(windowPrefix), let number = Int(text.dropFirst(windowPrefix.count)), number > 0 else {
            throw .unknownWindow(text)
        }
        return number
    }

    /// Runs `body` on the session under its lock, mapping errors to D-Bus errors.
    func withCore<T: Sendable>(_ body: (SessionCore) throws -> T) throws(BusError) -> T {
        do {
            return try core.withLock { core throws in try body(core) }
        } catch {
            throw ErrorMapping.busError(for: error)
        }
    }

    /// Asks the daemon to quit (`ActivateAction("quit")`).
    func requestQuit() { quitRequests.yield() }

    // MARK: Announcing

    /// Emits what `events` say, in order: exports and unexports (ObjectManager signals), Session1 and
    /// Window1 PropertiesChanged, `Changed`, `Message`, `OpenExternalURL`, `Effect`.
    func announce(_ events: [SessionEvent], on bus: Bus) async {
        for event in events {
            do {
                switch event {
                case .opened(let number):
                    try await bus.export([try windowInterface()], at: try Self.path(of: number))
                    try await bus.propertiesChanged(
                        [names.windows, names.version], interface: names.sessionInterface, at: names.sessionPath)
                case .closed(let number):
                    try await bus.unexport(at: try Self.path(of: number))
                    try await bus.propertiesChanged(
                        [names.windows, names.version], interface: names.sessionInterface, at: names.sessionPath)
                case .changed(let change):
                    try await announce(change, on: bus)
                case .externalURL(let number, let url):
                    try await bus.emit(
                        path: try Self.path(of: number), interface: names.windowInterface, member: names.openExternalURL,
                        arguments: [.string(url)])
                case .effect(let number, let name, let args):
                    try await bus.emit(
                        path: try Self.path(of: number), interface: names.windowInterface, member: names.effect,
                        arguments: [.string(name), .stringDictionary(args)])
                }
            } catch {
                logger.warning("cannot announce \(event): \(error)")
            }
        }
    }

    private func announce(_ change: WindowChange, on bus: Bus) async throws {
        let path = try Self.path(of: change.window)
        try await bus.emit(
            path: path, interface: names.windowInterface, member: names.changed,
            arguments: [
                .uint64(change.version), .uint64(change.version &- 1), .string(change.causeJSON),
                .boolean(change.animated), .array(.uint64, change.started.map(Value.uint64)),
                .array(.uint64, change.finished.map(Value.uint64)), .string(change.stepsJSON),
            ])
        for delivered in change.messages {
            var payload = ["payload": delivered.message.payload]
            if let sender = delivered.sender { payload["sender"] = String(sender.rawValue) }
            try await bus.emit(
                path: path, interface: names.windowInterface, member: names.message,
                arguments: [
                    .uint64(UInt64(clamping: delivered.recipient.rawValue)), .string(delivered.message.name),
                    .stringDictionary(payload),
                ])
        }
        if !change.changedProperties.isEmpty {
            try await bus.propertiesChanged(
                try change.changedProperties.map { name throws in try MemberName(name) }, interface: names.windowInterface, at: path)
        }
    }

    // MARK: Close on exit

    /// Starts watching `client` (once) and closes its close-on-exit windows when it leaves the bus.
    func watch(_ client: BusName, on bus: Bus) {
        let isNew = watchedClients.withLock { $0.insert(client.rawValue).inserted }
        guard isNew else { return }
        Task { [weak bus] in
            guard let bus else { return }
            do {
                try await bus.waitUntilNameVanishes(client)
            } catch {
                return
            }
            self.watchedClients.withLock { _ = $0.remove(client.rawValue) }
            let events: [SessionEvent] = self.core.withLock { core in
                var events: [SessionEvent] = []
                for number in core.windows(ownedBy: client.rawValue) {
                    events += (try? core.dismissWindow(number)) ?? []
                }
                return events
            }
            self.logger.info("\(client) left the bus; closing \(events.count) window(s)")
            await self.announce(events, on: bus)
        }
    }
}
