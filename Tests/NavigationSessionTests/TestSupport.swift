import Foundation
import Logging
import NavigationCore
import Synchronization
import Testing

@testable import NavigationSession

/// Collects log records so tests can check that a line was emitted.
final class LogRecorder: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let storage = Mutex<[Record]>([])

    var records: [Record] { storage.withLock { $0 } }

    func append(_ record: Record) { storage.withLock { $0.append(record) } }

    var logger: Logger {
        Logger(label: "test") { _ in RecordingHandler(recorder: self) }
    }
}

struct RecordingHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var flat: [String: String] = [:]
        for (key, value) in event.metadata ?? [:] { flat[key] = "\(value)" }
        recorder.append(.init(level: event.level, message: "\(event.message)", metadata: flat))
    }
}

/// A fresh temporary directory for one test.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "navsession-tests-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func files(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// A demo session, optionally persisted in `directory`.
func demoSession(
    directory: String? = nil, compactionInterval: Int = 256, logger: Logger = Logger(label: "test"),
    limits: SessionLimits = SessionLimits(), clock: SessionClock = .monotonic
) throws -> Session {
    let store = try directory.map { try SessionStore(directory: $0, compactionInterval: compactionInterval, logger: logger) }
    return try Session(manifest: Manifest.demo(), store: store, limits: limits, logger: logger, clock: clock)
}

/// Opens the demo's main window and logs in (switches to the "main" state).
func loggedInMain(_ session: Session) throws -> WindowNumber {
    let number = try #require(session.openWindow(scene: "main").window)
    try session.execute(window: number, command: .switchModel(.screen("main")))
    return number
}

extension SessionWindow {
    /// Screens along the active branch, root first.
    var activeScreens: [String] { graph.activePath.compactMap { graph.model($0)?.screen } }
}

/// The case a session error is, looking through a failed batch to the failing command's own error, and into a deep
/// link's (`deepLink.unknownRoute`): what the tests check. The D-Bus name of each case is the service's to give.
func errorCase(_ error: SessionError?) -> String? {
    guard let error else { return nil }
    switch error {
    case .navigation(let inner): return Mirror(reflecting: inner.innermostCommandError).children.first?.label ?? "\(inner)"
    case .deepLink(let inner): return "deepLink." + (Mirror(reflecting: inner).children.first?.label ?? "")
    default: return error.caseName
    }
}
