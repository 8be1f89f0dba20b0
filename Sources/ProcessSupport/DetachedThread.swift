internal import CProcessShims
import Glibc

/// A named, detached OS thread running one closure — `pthread_create` without Foundation's `Thread`.
///
/// DBusKit's bus thread and the blocking waits of the code built on it need real threads (they sit in
/// `poll` or `sleep`, which must not happen on the cooperative pool). Foundation's `Thread` would pull all
/// of Foundation into every program that links DBusKit, and a command-line tool pays for that at every
/// start (Docs/performance.md, "navsessionctl").
package enum DetachedThread {
    /// Starts `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it).
    /// - Returns: `false` when the thread cannot be created (the system is out of threads or memory).
    @discardableResult
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(name: name, run: body))
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            CProcessShims_set_thread_name(body.name)
            body.run()
            return nil
        }, box.toOpaque())
        guard created == 0 else {
            box.release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
