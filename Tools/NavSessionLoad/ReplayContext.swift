import Logging
import NavigationCore
import NavigationSession

/// What the local replay needs besides the commands: the demo manifest, a window of each scene as it
/// opens, and the presentations `Window1.Present` builds. Not Sendable: used by the verifier alone.
final class ReplayContext {
    let manifest: Manifest
    private let session: Session
    private var windows: [String: WindowNumber] = [:]
    private let logger = Logger(label: "navsession-load.replay") { _ in SwiftLogNoOpLogHandler() }

    init() throws {
        manifest = try Manifest.demo()
        session = try Session(manifest: manifest, logger: logger)
    }

    /// A new window of `scene` exactly as `Session1.OpenWindow(scene, {})` builds it (version 0).
    func openedWindow(scene: String) throws -> NavigationWindow {
        try clone(try session.window(try window(of: scene)).graph)
    }

    /// `Window1.Present`'s presentation, built by the session's own code.
    func presentation(kind: String, screen: String, params: [String: String], scene: String) throws -> PresentationSpec {
        try session.presentation(kind: kind, screen: screen, params: params, in: try window(of: scene))
    }

    /// An independent copy (through a snapshot, as a restarted daemon restores a window).
    func clone(_ graph: NavigationWindow) throws -> NavigationWindow {
        try NavigationWindow(snapshot: graph.snapshot(), configuration: graph.configuration, logger: logger)
    }

    private func window(of scene: String) throws -> WindowNumber {
        if let number = windows[scene] { return number }
        guard let number = try session.openWindow(scene: scene).window else {
            throw LoadError("the replay session opened no window of \(scene)")
        }
        windows[scene] = number
        return number
    }
}
