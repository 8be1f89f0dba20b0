import Foundation
import Logging
import NavigationCore
import NavigationSession

#if canImport(Glibc)
    import Glibc
#endif

/// What every harness shares: the demo manifest, a silent logger, text decoding, scratch directories.
enum Fixtures {
    /// The demo manifest, parsed once per process (it is the daemon's default application).
    static let demo: Manifest? = try? Manifest.demo()

    /// The daemon's limits: `navsessiond` starts its session with the defaults (`SessionService`), so the
    /// harnesses do too; every session they create and every `Plan` they call use these.
    static let limits = SessionLimits()

    /// A logger that drops everything (the store and session log every corrupt file and restore).
    static let quiet = Logger(label: "ParserFuzzing", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The demo manifest or a violation (it must always load).
    static func demoManifest() throws(InvariantViolation) -> Manifest {
        guard let demo else { throw InvariantViolation("the demo manifest does not load") }
        return demo
    }

    /// The input as text the way D-Bus delivers a string: valid UTF-8 without NUL, else `nil`.
    static func busString(_ data: UnsafeRawBufferPointer) -> String? {
        guard !data.contains(0) else { return nil }
        return String(validating: data, as: UTF8.self)
    }

    /// A fresh empty directory (on tmpfs when there is one) for `body`, removed afterwards.
    static func withScratchDirectory<T>(
        _ body: (String) throws(InvariantViolation) -> T
    ) throws(InvariantViolation) -> T {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array("\(base)/navsession-fuzz-XXXXXX".utf8CString)
        let path: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress, let made = mkdtemp(start) else { return nil }
            return String(cString: made)
        }
        guard let path else { throw InvariantViolation("cannot create a scratch directory in \(base)") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Writes `bytes` to `path` (scratch files only).
    static func write(_ bytes: some Collection<UInt8>, to path: String) throws(InvariantViolation) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw InvariantViolation("cannot write scratch file \(path): \(error)")
        }
    }

    /// A demo session with its `main` window logged in (window 1) and a `waiting` window (window 2).
    static func loggedInDemoSession(store: SessionStore? = nil) throws(InvariantViolation) -> Session {
        let demo = try demoManifest()
        do {
            let session = try Session(manifest: demo, store: store, limits: limits, logger: quiet)
            let main = try session.openWindow(scene: "main").window ?? 0
            try session.execute(window: main, command: .switchModel(.screen("main")))
            try session.openWindow(scene: "waiting", params: ["reason": "sync"])
            return session
        } catch {
            throw InvariantViolation("the demo session cannot be set up: \(error)")
        }
    }
}
