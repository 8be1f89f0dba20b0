import DBusKit
import NavSessionInterface
import Synchronization

extension WindowProxy {
    /// Report: this renderer finished animating `version` (`ReportSettled`). The daemon announces each version
    /// once (`Settled`); the same or an older version is a no-op.
    /// - Throws: ``NavSessionError/versionMismatch(_:)`` for a version the window has not reached.
    public func reportSettled(_ version: UInt64) async throws(NavSessionError) {
        _ = try await call("ReportSettled", [.uint64(version)])
    }
}

/// One entry of the `Renderers` property, as far as waiting needs it.
private struct RendererEntry: Decodable {
    var id: String
    var settled: UInt64
}

extension NavSessionClient {
    /// Waits until renderer `renderer` (an id ``WindowProxy/registerRenderer(role:capabilitiesJSON:)`` gave), or with
    /// `nil` every registered renderer, reports that it finished animating `version` (`nil`: the window's version
    /// now): each renderer's settled version is its own (the `Renderers` property). Returns the lowest settled
    /// version among them.
    /// - Throws: ``NavSessionError/settleTimedOut(_:)`` after `timeout`, naming the renderers behind (or that none
    ///   is registered); ``NavSessionError/windowGone(window:)``; call errors.
    @discardableResult
    public func waitRenderersSettled(
        _ window: WindowProxy, renderer: String? = nil, version: UInt64? = nil, timeout: Duration = .seconds(10)
    ) async throws(NavSessionError) -> UInt64 {
        let subscription = try await DaemonSubscription.open(self)
        let current = try await window.properties()
        let target = version ?? current.version
        @Sendable func lowest(_ json: String) -> (settled: UInt64?, behind: [String]) {
            guard let entries = try? JSONCoding.decode([RendererEntry].self, from: json) else { return (nil, []) }
            let chosen = renderer.map { id in entries.filter { $0.id == id } } ?? entries
            guard !chosen.isEmpty else { return (nil, []) }
            let behind = chosen.filter { $0.settled < target }.map(\.id)
            return (chosen.map(\.settled).min(), behind)
        }
        let first = lowest(current.renderers)
        if let settled = first.settled, first.behind.isEmpty { return settled }
        let settled = try await watchSettling(window, subscription, timeout) { signal in
            guard signal.member.rawValue == "PropertiesChanged", signal.arguments.count > 1,
                  let entry = signal.arguments[1].dictionaryEntries?.first(where: { $0.key.string == NavSessionInterface.Window1.renderers }),
                  let json = (entry.value.variantValue ?? entry.value).string
            else { return nil }
            let now = lowest(json)
            return now.behind.isEmpty ? now.settled : nil
        }
        if let settled { return settled }
        let last = lowest((try? await window.properties())?.renderers ?? current.renderers)
        if last.settled == nil {
            throw .settleTimedOut(
                renderer.map { "window \(window.path) has no renderer \($0)" }
                    ?? "no renderer is registered on window \(window.path); waited \(timeout)")
        }
        throw .settleTimedOut(
            "renderer(s) \(last.behind.joined(separator: ", ")) did not report version \(target) settled within \(timeout)")
    }

    /// Waits until a renderer reports that it finished animating `version` of the window (`Settled`), or a
    /// newer one; returns the settled version. `version` `nil`: the window's version now (NavigationViewKit's
    /// completion closures: `try await client.waitSettled(window, version: try await window.goBack())`).
    ///
    /// Subscribes first, then reads `SettledVersion`, so a report in between is not missed; returns at once
    /// when the version has settled already.
    /// - Throws: ``NavSessionError/settleTimedOut(_:)`` after `timeout` — the message says when no renderer
    ///   follows the window (`SettledBy` is `""`: none ever reported settled for it, or it left the bus), which
    ///   is why it timed out; ``NavSessionError/windowGone(window:)``, ``NavSessionError/daemonLeft(_:)``; call errors.
    @discardableResult
    public func waitSettled(_ window: WindowProxy, version: UInt64? = nil, timeout: Duration = .seconds(10))
        async throws(NavSessionError) -> UInt64
    {
        let subscription = try await DaemonSubscription.open(self)
        let current = try await window.properties()
        let target = version ?? current.version
        // Version 0 (a window's first) counts as settled once a renderer has reported it: SettledVersion is 0 then too.
        if current.settledVersion >= target, target > 0 || !current.settledBy.isEmpty || current.settledVersion > 0 {
            return current.settledVersion
        }
        let settled = try await watchSettling(window, subscription, timeout) { signal in
            guard signal.member.rawValue == NavSessionInterface.Window1.settled,
                  let reported = signal.arguments.first?.uint64, reported >= target
            else { return nil }
            return reported
        }
        if let settled { return settled }
        let last = try? await window.properties()
        let renderer = last?.settledBy ?? ""
        let settledNow = last?.settledVersion ?? current.settledVersion
        if renderer.isEmpty {
            throw .settleTimedOut(
                "no renderer follows window \(window.path) (none has reported settled, or it left the bus), so version "
                    + "\(target) cannot settle; waited \(timeout) (settled version \(settledNow))")
        }
        throw .settleTimedOut(
            "the renderer \(renderer) did not report version \(target) settled within \(timeout) "
                + "(its last settled version is \(settledNow))")
    }
}

/// What a settled wait's forwarding task saw, shared with the waiting task.
final class SettleWatch: Sendable {
    let reported = Mutex<UInt64?>(nil)
    let gone = Atomic<Bool>(false)
}

extension NavSessionClient {
    /// Forwards the window's signals to `settled` until it returns a version (returned) or `timeout` passes (`nil`).
    /// - Throws: ``NavSessionError/windowGone(window:)``, ``NavSessionError/daemonLeft(_:)``,
    ///   ``NavSessionError/disconnected(_:)``, ``NavSessionError/cancelled``.
    fileprivate func watchSettling(
        _ window: WindowProxy, _ subscription: DaemonSubscription, _ timeout: Duration,
        _ settled: @escaping @Sendable (Signal) -> UInt64?
    ) async throws(NavSessionError) -> UInt64? {
        let path = window.objectPath
        let seen = SettleWatch()
        let stop: DaemonSubscription.Stop? = await Deadline.race(timeout) {
            await subscription.forward { signal in
                if NavSessionClient.isRemoval(signal, of: path) {
                    seen.gone.store(true, ordering: .relaxed)
                    return false
                }
                guard signal.path == path, let version = settled(signal) else { return true }
                seen.reported.withLock { $0 = version }
                return false
            }
        }
        if let reported = seen.reported.withLock({ $0 }) { return reported }
        if seen.gone.load(ordering: .relaxed) { throw .windowGone(window: window.path) }
        switch stop {
        case .daemonLeft: throw .daemonLeft("\(applicationID) left the bus")
        case .connectionClosed: throw .disconnected("the connection closed")
        case .cancelled: throw .cancelled
        case .handled, nil: return nil
        }
    }
}
