import NavigationCore
import NavigationRouting
import NavigationSession

/// Deep-link URLs (Session1 `OpenURL`) against the demo manifest's router: parsed and matched by
/// `DeepLinkRouter.plan(for:)`, then opened in a logged-out and a logged-in demo session.
enum DeepLinkHarness {
    static func run(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard let url = Fixtures.busString(data) else { return }
        let demo = try Fixtures.demoManifest()
        guard let router = demo.router else { throw InvariantViolation("the demo manifest has no router") }
        let planned: Result<DeepLinkPlan, DeepLinkError>
        do {
            let plan = try router.plan(for: url)
            guard router.routes.contains(where: { $0.name == plan.route }) else {
                throw InvariantViolation("deepLink: the plan names undeclared route '\(plan.route)'")
            }
            guard demo.scene(plan.targetScene) != nil else {
                throw InvariantViolation("deepLink: the plan targets undeclared scene '\(plan.targetScene)'")
            }
            // Path and query values are percent-decoded: `%00` must not become a NUL in a parameter.
            try Invariants.noNUL(plan, "deepLink: the plan")
            planned = .success(plan)
        } catch let error as InvariantViolation {
            throw error
        } catch {
            guard let error = error as? DeepLinkError, !error.description.isEmpty else {
                throw InvariantViolation("deepLink: the router threw \(error)")
            }
            planned = .failure(error)
        }

        // Logged out: the link waits for the `main` state (or is external); logging in applies it.
        do {
            let session = try session(demo)
            try open(url, in: session, planned: planned)
            if session.windows.contains(where: { $0.pendingDeepLink != nil }) {
                for window in session.windows where window.pendingDeepLink != nil {
                    _ = try? session.execute(window: window.number, command: .switchModel(.screen("main")))
                }
            }
            try Invariants.check(session, "deepLink (logged out)")
        }
        // Logged in: the link applies at once.
        let session = try Fixtures.loggedInDemoSession()
        try open(url, in: session, planned: planned)
        try Invariants.check(session, "deepLink (logged in)")
    }

    private static func session(_ demo: Manifest) throws(InvariantViolation) -> Session {
        do {
            return try Session(manifest: demo, limits: Fixtures.limits, logger: Fixtures.quiet)
        } catch {
            throw InvariantViolation("deepLink: cannot create a session: \(error)")
        }
    }

    /// Opens `url`; the session must agree with the router on whether the link resolves.
    private static func open(
        _ url: String, in session: Session, planned: Result<DeepLinkPlan, DeepLinkError>
    ) throws(InvariantViolation) {
        do {
            let outcome = try session.openURL(url)
            switch (planned, outcome.deepLink) {
            case (.success(let plan), .applied(let route)?), (.success(let plan), .deferred(let route, _)?):
                guard route == plan.route else {
                    throw InvariantViolation("deepLink: the session took route '\(route)', the router '\(plan.route)'")
                }
            case (.failure(.wrongScheme), .external?):
                break
            default:
                throw InvariantViolation("deepLink: the router said \(planned) but the session \(outcome.deepLink.map { "\($0)" } ?? "nothing")")
            }
        } catch let error as InvariantViolation {
            throw error
        } catch {
            guard let error = error as? SessionError, !error.message.isEmpty else {
                throw InvariantViolation("deepLink: the session threw \(error)")
            }
            switch (planned, error) {
            case (.success, .deepLink(let reason)):
                throw InvariantViolation("deepLink: the router planned the link but the session says \(reason)")
            case (.failure(.wrongScheme), _), (.failure, .deepLink), (.failure, .limitsExceeded), (.success, _):
                break
            default:
                throw InvariantViolation("deepLink: the router said \(planned) but the session threw \(error)")
            }
        }
    }
}
