import Logging
import NavigationCore
import NavigationRouting

/// Deep links and other URLs (Session1 `OpenURL`).
extension Session {
    /// Handles a URL: the application's scheme is a deep link, any other is announced, never opened.
    ///
    /// A deep link chooses the most recently active window of the route's scene (or opens one; `open:
    /// new` routes always open one, except for a singleton scene already open), turns the plan into
    /// one atomic batch and applies it; `steps` in the `changed` event plan the move for the window's
    /// renderer. A link whose batch would start a screen whose entry condition does not hold is redirected and
    /// waits like any change (Docs/guards.md; ``DeepLinkResult/deferred(route:state:)``).
    /// If the scene declares a `deepLinkState` and the window's switched root shows another
    /// state (the demo: logged out), the link waits in the window (``DeepLinkResult/deferred(route:state:)``;
    /// a newer one replaces it) and is applied right after the window switches to that state. A window
    /// opened for a link whose batch fails is not opened at all.
    ///
    /// Another scheme → ``SessionEvent/externalURL(_:_:)`` on the active window (a default-scene window is
    /// opened when none is open).
    /// - Returns: the outcome; `window` is the window that handled the URL, `deepLink` how.
    /// - Throws: ``SessionError/limitsExceeded(_:)`` (longer than 8192 bytes), ``SessionError/deepLink(_:)``
    ///   (unknown route, missing or bad parameter, malformed URL), ``SessionError/deepLinkApply(_:)``,
    ///   ``SessionError/navigation(_:)``, ``SessionError/storageFailed(_:)``.
    /// - Parameter client: charged with the windows and content the link creates; `nil` charges no one.
    @discardableResult
    public func openURL(_ url: String, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            var events: [SessionEvent] = []
            let (number, result) = try openURL(url, source: nil, events: &events)
            return outcome(window: number, events: events, deepLink: result)
        }
    }

    func openURL(
        _ url: String, source: WindowNumber?, events: inout [SessionEvent]
    ) throws(SessionError) -> (WindowNumber, DeepLinkResult) {
        let length = url.utf8.count
        guard length <= DeepLinkRouter.maximumURLLength else {
            throw .limitsExceeded("URL is \(length) bytes long; the limit is \(DeepLinkRouter.maximumURLLength) bytes")
        }
        guard let router = manifest.router else {
            return try announceExternal(url, source: source, events: &events)
        }
        let plan: DeepLinkPlan
        do {
            plan = try router.plan(for: url)
        } catch {
            if case .wrongScheme = error { return try announceExternal(url, source: source, events: &events) }
            throw .deepLink(error)
        }
        return try navigate(plan, url: url, events: &events)
    }

    private func announceExternal(
        _ url: String, source: WindowNumber?, events: inout [SessionEvent]
    ) throws(SessionError) -> (WindowNumber, DeepLinkResult) {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex,
            url[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            url.first?.isLetter == true, !url.contains(where: \.isWhitespace)
        else {
            throw .deepLink(.malformedURL(reason: "'\(url)' has no scheme"))
        }
        let number: WindowNumber
        if let source, windowsByNumber[source] != nil {
            number = source
        } else if let active = activeWindow {
            number = active.number
        } else {
            number = try openWindow(scene: manifest.defaultSceneName, params: [:], events: &events)
        }
        events.append(.externalURL(number, url))
        return (number, .external)
    }

    private func navigate(
        _ plan: DeepLinkPlan, url: String, events: inout [SessionEvent]
    ) throws(SessionError) -> (WindowNumber, DeepLinkResult) {
        guard let scene = manifest.scene(plan.targetScene) else { throw .unknownScene(plan.targetScene, suggestion: Spelling.closest(to: plan.targetScene, in: manifest.sceneNames)) }
        let existing = windows.filter { $0.scene == scene.name }.max { $0.lastActivity < $1.lastActivity }
        let reuse = existing != nil && (!plan.opensNewWindow || scene.instances == .single)
        // The route's own `requires` replaces the scene's `deepLinkState` (Docs/guards.md).
        let linkState = manifest.linkState(route: plan.route, scene: scene)
        if reuse, let window = existing {
            if let state = linkState, window.currentState != state {
                try deferLink(url, route: plan.route, state: state, in: window, events: &events)
                return (window.number, .deferred(route: plan.route, state: state))
            }
            try apply(plan, to: window, events: &events)
            // `apply` cleared the pending navigation first: one now is this link's batch, redirected.
            if case .commands(_, _, let state)? = window.pending {
                return (window.number, .deferred(route: plan.route, state: state))
            }
            return (window.number, .applied(route: plan.route))
        }
        // A new window: build and navigate it before registering, so a failure leaves nothing behind.
        let (_, root) = try prepareWindow(scene: scene.name, params: plan.newWindowParams)
        let graph = try makeGraph(root, scene: scene.name)
        var batch: [BatchCommand] = []
        var refused: (screen: String, state: String)?
        let stateReady = linkState.map { state in Self.state(of: graph) == state } ?? true
        if stateReady {
            do {
                batch = try plan.commands(for: graph)
            } catch {
                throw .deepLinkApply(error)
            }
            if !batch.isEmpty {
                do {
                    try graph.apply(batch, budget: newWindowBudget())
                } catch {
                    // A screen's entry condition: the window opens and the batch waits in it (Docs/guards.md).
                    guard case .entryRefused(let screen, let state, _) = error else { throw .navigation(error) }
                    refused = (screen, state)
                }
            }
        }
        // The journal records the window at version 0 and then the batch, exactly as replay redoes it.
        let window = try register(graph, scene: scene.name, root: root)
        events.append(.windowOpened(window.number, scene: scene.name))
        if let refused {
            try redirect(window, batch, screen: refused.screen, state: refused.state, resumed: false, events: &events)
            return (window.number, .deferred(route: plan.route, state: refused.state))
        }
        if !batch.isEmpty {
            try persist(.batch(window: window.number, batch: batch, version: graph.version))
            _ = graph.drainMessages()
            _ = graph.drainEffects()
        }
        if let state = linkState, !stateReady {
            try deferLink(url, route: plan.route, state: state, in: window, events: &events)
            return (window.number, .deferred(route: plan.route, state: state))
        }
        return (window.number, .applied(route: plan.route))
    }

    private func apply(
        _ plan: DeepLinkPlan, to window: SessionWindow, resumed: PendingNavigation? = nil, events: inout [SessionEvent]
    ) throws(SessionError) {
        let batch: [BatchCommand]
        do {
            batch = try plan.commands(for: window.graph)
        } catch {
            throw .deepLinkApply(error)
        }
        if window.pending != nil, resumed == nil { try setPending(nil, in: window) }
        guard !batch.isEmpty else {
            touch(window)
            return
        }
        try applyChange(window, batch, resumed: resumed, events: &events)
    }

    /// A deep link waits in the window as its pending navigation (Docs/guards.md), replacing any other, after
    /// its route's `redirect` (if it declares one) ran as one change.
    private func deferLink(
        _ url: String, route: String, state: String, in window: SessionWindow, events: inout [SessionEvent]
    ) throws(SessionError) {
        let redirect = manifest.routeConditions[route]?.redirect ?? []
        try wait(.deepLink(url), state: state, in: window, redirect: redirect, events: &events)
    }

    /// Applies a deep link that waited for its route's `requires` or its scene's `deepLinkState`
    /// (``resumePending(in:events:)``).
    func resumeDeepLink(_ url: String, in window: SessionWindow, events: inout [SessionEvent]) throws(SessionError) {
        guard let router = manifest.router else { return }
        let plan: DeepLinkPlan
        do {
            plan = try router.plan(for: url)
        } catch {
            throw .deepLink(error)
        }
        try apply(plan, to: window, resumed: .deepLink(url), events: &events)
    }

    /// The state shown by the first switched model on the active branch of `graph`.
    static func state(of graph: NavigationWindow) -> String? {
        for id in graph.activePath {
            if let switched = graph.model(id)?.switchedModel { return graph.model(switched)?.screen }
        }
        return nil
    }
}
