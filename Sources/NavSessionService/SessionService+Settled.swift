import DBusKit
import Logging
import Synchronization
import NavigationSession

/// `Window1.ReportSettled(t version)` → `Settled(t version)` (Docs/dbus-api.md, "Settled"): a renderer's word
/// that it finished animating a version, announced once per version. Not a change of the window: no version
/// bump, no journal line; the window's `SettledVersion` and `SettledBy` properties follow.
extension SessionService {
    /// Records the report and, for a version newer than the window's settled one, emits `Settled` and the
    /// properties that changed. The same or an older version is a no-op (no second signal).
    func reportSettled(_ call: MethodCall, on bus: isolated Bus) throws {
        let number = try Self.number(of: call.path)
        let version = Int(clamping: call.arguments[0].uint64 ?? 0)
        let (announced, changes) = try withSession { state in
            let announced = try state.session.reportSettled(window: number, version: version, client: call.client)
            return (announced, try state.refreshProperties(number))
        }
        if announced {
            try emit(names.settled, window: number, on: bus, [.uint64(UInt64(clamping: version))])
        }
        if !changes.isEmpty {
            try bus.propertiesChanged(changes, interface: names.windowInterface, at: try path(of: number))
        }
    }

    /// A client left the bus: the windows it reported settled for have no known renderer any more (`SettledBy`
    /// becomes `""`). Nothing when it reported none.
    func settlerVanished(_ uniqueName: String, on bus: isolated Bus) {
        let changes: [(WindowNumber, [(name: MemberName, value: Value)])] = state.withLock { state in
            // Its model follows end too (SessionService+Followers.swift).
            state.followers.drop(client: uniqueName)
            // Its renderers are unregistered (their windows' Renderers property changes).
            let numbers = Set(state.session.settlerLeft(uniqueName)).union(state.session.renderersLeft(uniqueName))
            return numbers.sorted().compactMap { number in
                (try? state.refreshProperties(number)).map { (number, $0) }
            }
        }
        for (number, changed) in changes where !changed.isEmpty {
            do {
                try bus.propertiesChanged(changed, interface: names.windowInterface, at: try path(of: number))
            } catch {
                logger.warning("cannot announce that window \(number)'s renderer left: \(error)")
            }
        }
    }
}

extension ServiceState {
    /// Recomputes window `number`'s properties (after a settled report, a guard verdict); returns the ones that changed.
    mutating func refreshProperties(_ number: WindowNumber) throws(SessionError) -> [(name: MemberName, value: Value)] {
        let after = WindowProperties(try session.window(number), session: session)
        defer { properties[number] = after }
        guard let before = properties[number] else { return [] }
        return after.changes(from: before)
    }
}
