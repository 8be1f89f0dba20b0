import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// What one navigation window should look like, reduced to what both sides can say: computed from the
/// daemon (GetState + Window1 properties) and from the renderer's Describe (read from its widgets).
struct WindowSummary: Equatable, CustomStringConvertible {
    var path: String
    var version: UInt64
    var title: String
    var canGoBack: Bool
    /// The daemon's CanGoForward; the renderer's forward button shown.
    var canGoForward: Bool
    /// stack model id → the model id of its visible page.
    var stacks: [UInt64: UInt64]
    /// tabs model id → selected tab id.
    var tabs: [UInt64: String]
    /// presented sheet / cover / custom model id → presentation style.
    var modals: [UInt64: String]
    /// alert / confirmation dialog model id → "kind|title|action ids".
    var dialogs: [UInt64: String]

    var description: String {
        "\(path) v\(version) title=\(title.debugDescription) back=\(canGoBack) forward=\(canGoForward) stacks=\(stacks.sorted { $0.key < $1.key }) "
            + "tabs=\(tabs) modals=\(modals) dialogs=\(dialogs)"
    }

    /// From the daemon.
    init(path: String, state: [String: Any], properties: [String: Value]) {
        self.path = path
        version = properties["Version"]?.uint64 ?? 0
        title = properties["Title"]?.string ?? ""
        canGoBack = properties["CanGoBack"]?.bool ?? false
        canGoForward = properties["CanGoForward"]?.bool ?? false
        stacks = [:]
        tabs = [:]
        modals = [:]
        dialogs = [:]
        let models = state["models"] as? [[String: Any]] ?? []
        var byID: [UInt64: [String: Any]] = [:]
        for model in models { byID[(model["id"] as? NSNumber)?.uint64Value ?? 0] = model }
        /// Whether the model is in a branch a switched container keeps (saved): not on screen.
        func isKept(_ start: UInt64) -> Bool {
            var current: UInt64? = start
            var steps = 0
            while let id = current, let model = byID[id], steps <= byID.count {
                if (model["attachment"] as? [String: Any])?["type"] as? String == "saved" { return true }
                current = (model["parent"] as? NSNumber)?.uint64Value
                steps += 1
            }
            return false
        }
        for model in models {
            let id = (model["id"] as? NSNumber)?.uint64Value ?? 0
            if isKept(id) { continue }
            let kind = model["kind"] as? String ?? ""
            switch kind {
            case "stack":
                if let last = (model["path"] as? [[String: Any]])?.last, let top = last["model"] as? NSNumber {
                    stacks[id] = top.uint64Value
                }
            case "tabs":
                tabs[id] = model["selectedTab"] as? String ?? ""
            default:
                break
            }
            let attachment = model["attachment"] as? [String: Any] ?? [:]
            guard attachment["type"] as? String == "presented" else { continue }
            if kind == "alert" || kind == "confirmationDialog" {
                let dialog = model["dialog"] as? [String: Any] ?? [:]
                let actions = (dialog["actions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                dialogs[id] = "\(kind)|\(dialog["title"] as? String ?? "")|\(actions.joined(separator: ","))"
            } else {
                let style = attachment["style"] as? [String: Any] ?? [:]
                let styleKind = style["kind"] as? String ?? ""
                modals[id] = styleKind == "custom" ? style["name"] as? String ?? "custom" : styleKind
            }
        }
    }

    /// From the renderer's Describe entry of one window.
    init(described window: [String: Any]) {
        path = window["path"] as? String ?? ""
        version = (window["version"] as? NSNumber)?.uint64Value ?? 0
        title = window["title"] as? String ?? ""
        canGoBack = (window["back"] as? [String: Any])?["sensitive"] as? Bool ?? false
        canGoForward = (window["forward"] as? [String: Any])?["visible"] as? Bool ?? false
        stacks = [:]
        tabs = [:]
        modals = [:]
        dialogs = [:]
        for stack in window["stacks"] as? [[String: Any]] ?? [] {
            let id = (stack["model"] as? NSNumber)?.uint64Value ?? 0
            stacks[id] = ((stack["visible"] as? [String: Any])?["model"] as? NSNumber)?.uint64Value ?? 0
        }
        for tab in window["tabs"] as? [[String: Any]] ?? [] {
            tabs[(tab["model"] as? NSNumber)?.uint64Value ?? 0] = tab["selected"] as? String ?? ""
        }
        for modal in window["modals"] as? [[String: Any]] ?? [] {
            modals[(modal["model"] as? NSNumber)?.uint64Value ?? 0] = modal["style"] as? String ?? ""
        }
        for dialog in window["dialogs"] as? [[String: Any]] ?? [] {
            let actions = (dialog["buttons"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            dialogs[(dialog["model"] as? NSNumber)?.uint64Value ?? 0] =
                "\(dialog["kind"] as? String ?? "")|\(dialog["title"] as? String ?? "")|\(actions.joined(separator: ","))"
        }
    }
}

extension RendererHarness {
    /// The daemon's windows as the screen should show them.
    func expectedScreen() async throws -> [WindowSummary] {
        var result: [WindowSummary] = []
        for window in try await windows() {
            result.append(WindowSummary(path: window, state: try await state(window), properties: try await properties(window)))
        }
        return result.sorted { $0.path.count == $1.path.count ? $0.path < $1.path : $0.path.count < $1.path.count }
    }

    /// The renderer's windows as Describe reads them from the widgets.
    func shownScreen() async throws -> [WindowSummary] {
        let windows = try await describe()["windows"] as? [[String: Any]] ?? []
        return windows.map(WindowSummary.init(described:))
    }

    /// Every signal on the private bus from now on: the daemon's (Changed, PropertiesChanged, Settled, windows
    /// coming and going) and the renderer's ScreenChanged (emitted once it has redrawn). Waits re-check
    /// their condition on each, under a deadline, instead of polling.
    func events() async throws -> AsyncStream<Signal> {
        try await client.signals(matching: MatchRule())
    }

    /// Waits until the screen shows the daemon's state, within the liveness bound of `timeout`
    /// (``Liveness/bound(_:)``: at least 60 s, times `NAVSESSION_TEST_PATIENCE`).
    ///
    /// First the renderer's own word: for every daemon window, its `ReportSettled` of a version at least the
    /// window's current one, which the daemon announces as a Window1 `Settled` signal (and in `SettledVersion`,
    /// `SettledBy`) — the renderer reports a version once it has drawn it and its animation has run, so the
    /// screen is then compared once. Only if that comparison fails (the daemon moved on meanwhile, a window
    /// went) is it re-read after each signal until the same deadline: the fallback, not the wait.
    @discardableResult
    func waitUntilScreenMatches(
        _ step: String, timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [WindowSummary] {
        let bound = Liveness.bound(timeout)
        let deadline = ContinuousClock.now + bound
        let signals = try await events()
        let unsettled = try await waitUntilSettled(signals, until: deadline)
        var expected: [WindowSummary] = []
        var shown: [WindowSummary] = []
        repeat {
            expected = try await expectedScreen()
            shown = try await shownScreen()
            if expected == shown {
                try await screenshot(step, windows: shown)
                return shown
            }
        } while await signals.first(within: deadline - ContinuousClock.now) != nil
        let settled = unsettled.isEmpty
            ? "every window was reported settled at its version"
            : "not reported settled: \(unsettled.map { "\($0.path) (version \($0.version))" }.joined(separator: ", "))"
        let message = "\(step): the screen did not show the daemon's state within \(bound); \(settled)\n"
            + "  daemon:   \(expected)\n  renderer: \(shown)\nrenderer log:\n\(rendererLog)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        throw HarnessError("\(step): screen mismatch")
    }

    /// Waits, reading `signals` (subscribed before this reads anything, so no report falls in between), until
    /// the renderer has reported every window the daemon has now settled at its current version or newer: its
    /// `SettledVersion` at least that version and `SettledBy` naming the renderer (which also covers a window
    /// still at version 0, whose first report announces no `Settled` but sets `SettledBy`). Re-read on a Window1
    /// `Settled` signal or a `PropertiesChanged` of a window waited for; a window that goes (`InterfacesRemoved`)
    /// is no longer waited for. Returns the windows still waited for at `deadline` (empty when all settled).
    private func waitUntilSettled(
        _ signals: AsyncStream<Signal>, until deadline: ContinuousClock.Instant
    ) async throws -> [(path: String, version: UInt64)] {
        func isSettled(_ properties: [String: Value], at version: UInt64) -> Bool {
            properties["SettledVersion"]?.uint64 ?? 0 >= version && !(properties["SettledBy"]?.string ?? "").isEmpty
        }
        var pending: [String: UInt64] = [:]
        for window in try await windows() {
            let properties = try await properties(window)
            let version = properties["Version"]?.uint64 ?? 0
            if !isSettled(properties, at: version) { pending[window] = version }
        }
        while !pending.isEmpty {
            let remaining = deadline - ContinuousClock.now
            let waiting = Set(pending.keys)
            guard remaining > .zero,
                let signal = await signals.first(within: remaining, where: { signal in
                    switch signal.member.rawValue {
                    case "InterfacesRemoved": return true
                    case "Settled", "PropertiesChanged": return waiting.contains(signal.path.rawValue)
                    default: return false
                    }
                })
            else { break }
            if signal.member.rawValue == "InterfacesRemoved" {
                let open = Set(try await windows())
                pending = pending.filter { open.contains($0.key) }
            } else if let version = pending[signal.path.rawValue] {
                // Read again rather than taken from the signal: one read says both SettledVersion and SettledBy.
                if let properties = try? await properties(signal.path.rawValue) {
                    if isSettled(properties, at: version) { pending[signal.path.rawValue] = nil }
                } else if !(try await windows()).contains(signal.path.rawValue) {
                    pending[signal.path.rawValue] = nil
                }
            }
        }
        return pending.map { (path: $0.key, version: $0.value) }.sorted { $0.path < $1.path }
    }

    /// Saves what each top-level window shows after `step` as PNGs in `.build/gtk-renderer-screenshots/`
    /// (drawn by GTK itself through the renderer's Screenshot hook), so every run leaves a picture of each
    /// step of the flow it checked; `Examples/gtk-renderer/screenshots.sh` makes the ones in Docs/images.
    func screenshot(_ step: String, windows: [WindowSummary]) async throws {
        let directory = PrivateBus.repositoryRoot.appendingPathComponent(".build/gtk-renderer-screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = String(step.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        for window in windows {
            guard let number = window.path.split(separator: "/").last else { continue }
            let file = directory.appendingPathComponent("\(name)-window-\(number).png").path
            _ = try? await call(
                Self.rendererName, Self.rendererPath, "org.navsession.GtkRenderer1", "Screenshot",
                [.string("window/\(number)"), .string(file)])
        }
    }

    /// Checks `condition` now and again after each signal on the bus (the daemon's or the renderer's
    /// ScreenChanged) until it holds, within the liveness bound of `timeout` (``Liveness/bound(_:)``).
    func waitForDaemon(
        _ what: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () async throws -> Bool
    ) async throws {
        let bound = Liveness.bound(timeout)
        let deadline = ContinuousClock.now + bound
        let signals = try await events()
        repeat {
            if try await condition() { return }
        } while await signals.first(within: deadline - ContinuousClock.now) != nil
        let message = "the daemon did not reach: \(what) within \(bound)\nrenderer log:\n\(rendererLog)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        throw HarnessError("timeout: \(what)")
    }

    /// One window's Describe entry.
    func described(_ number: Int) async throws -> [String: Any] {
        let windows = try await describe()["windows"] as? [[String: Any]] ?? []
        return try #require(windows.first { $0["id"] as? String == "window/\(number)" }, "window/\(number) not on screen")
    }

    /// How often the renderer resynchronised, by reason (`missedChange`, `rejectedReport`).
    func resyncs() async throws -> [String: Int] {
        try await describe()["resyncs"] as? [String: Int] ?? [:]
    }

    /// Makes the renderer ignore Changed signals (as if lost) or take them again.
    func dropChanges(_ drop: Bool) async throws {
        _ = try await call(Self.rendererName, Self.rendererPath, "org.navsession.GtkRenderer1", "DropChanges", [.boolean(drop)])
    }

    func property(_ window: String, _ name: String) async throws -> Value? {
        try await properties(window)[name]
    }
}
