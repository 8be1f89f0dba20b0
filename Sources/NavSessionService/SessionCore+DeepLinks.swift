import NavigationCore
import NavigationRouting
import NavigationSession

extension SessionCore {
    /// Handles a URL: a deep link of the application's schemes navigates (or waits, see
    /// ``releasePendingLinks(of:into:)``); any other URL is announced as `OpenExternalURL` on
    /// `externalWindow` (default: the last opened window, opening the default scene if none is open).
    ///
    /// - Returns: the window that handled the URL, and the events.
    func openURL(_ url: String, externalWindow: Int? = nil) throws -> (Int, [SessionEvent]) {
        guard url.utf8.count <= DeepLinkRouter.maximumURLLength else {
            throw DeepLinkError.urlTooLong(length: url.utf8.count, limit: DeepLinkRouter.maximumURLLength)
        }
        var events: [SessionEvent] = []
        guard let router = manifest.router, Self.scheme(of: url).map({ router.handles(scheme: $0) }) == true else {
            guard Self.scheme(of: url) != nil else {
                throw DeepLinkError.malformedURL(reason: "'\(url.prefix(64))' has no scheme")
            }
            let number: Int
            if let externalWindow, entries[externalWindow] != nil {
                number = externalWindow
            } else if let last = order.last {
                number = last
            } else {
                let opened = try openWindow(scene: manifest.defaultSceneName, params: [:])
                number = opened.0
                events += opened.1
            }
            events.append(.externalURL(window: number, url: url))
            return (number, events)
        }
        let plan = try router.plan(for: url)
        let number: Int
        if !plan.opensNewWindow, let existing = order.last(where: { entries[$0]?.scene == plan.targetScene }) {
            number = existing
        } else {
            let opened = try openWindow(scene: plan.targetScene, params: plan.newWindowParams)
            number = opened.0
            events += opened.1
        }
        let entry = try entry(number)
        if !isReadyForLinks(entry) {
            entry.pendingLinks.append(plan)
            return (number, events)
        }
        try navigate(entry, to: plan, into: &events)
        return (number, events)
    }

    /// Applies `plan` to `entry` as one change (nothing when the window already is at the destination).
    func navigate(_ entry: WindowEntry, to plan: DeepLinkPlan, into events: inout [SessionEvent]) throws {
        let commands = try plan.commands(for: entry.window)
        guard !commands.isEmpty else { return }
        try change(entry, into: &events) { window throws(NavigationError) in try window.apply(commands) }
    }

    /// Applies the deep links waiting on `entry` once its switched root shows the deep-link state.
    func releasePendingLinks(of entry: WindowEntry, into events: inout [SessionEvent]) {
        guard !entry.pendingLinks.isEmpty, isReadyForLinks(entry) else { return }
        let plans = entry.pendingLinks
        entry.pendingLinks = []
        for plan in plans {
            do {
                try navigate(entry, to: plan, into: &events)
            } catch {
                events.append(.effect(window: entry.number, name: "deepLinkFailed", args: ["route": plan.route]))
            }
        }
    }

    /// Whether deep links can land in `entry` now: its scene declares no deep-link state, or the
    /// window's switched root shows it.
    func isReadyForLinks(_ entry: WindowEntry) -> Bool {
        guard let state = manifest.scene(entry.scene)?.deepLinkState else { return true }
        let window = entry.window
        guard let root = window.root, let shown = root.switchedModel else { return true }
        return window.model(shown)?.screen == state
    }

    /// The scheme of `url` (text before the first `:`), lowercased, or `nil`.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
        let scheme = url[..<colon]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return scheme.lowercased()
    }
}

extension DeepLinkRouter {
    /// Whether `scheme` (lowercased) is one of the router's schemes.
    func handles(scheme: String) -> Bool {
        schemes.contains { $0.lowercased() == scheme }
    }
}
