import DBusKit

/// The fuzzer's picture of the daemon's session, kept from replies: open windows (in opening order), windows
/// that were closed (their paths are now stale), and each window's last known graph.
final class SessionModel {
    private(set) var live: [ObjectPath] = []
    private(set) var stale: [ObjectPath] = []
    private(set) var facts: [ObjectPath: WindowFacts] = [:]

    /// A window path came back from OpenWindow, OpenURL or similar.
    func opened(_ path: ObjectPath) {
        guard path.rawValue.contains("/window/"), !live.contains(path) else { return }
        live.append(path)
        stale.removeAll { $0 == path }
    }

    /// The daemon says the window is gone (DismissWindow succeeded, or UnknownObject for it).
    func closed(_ path: ObjectPath) {
        guard let index = live.firstIndex(of: path) else { return }
        live.remove(at: index)
        facts[path] = nil
        stale.append(path)
        if stale.count > 64 { stale.removeFirst(stale.count - 64) }
    }

    /// The full list, from ListWindows or the Windows property.
    func replace(with paths: [ObjectPath]) {
        for path in live where !paths.contains(path) { closed(path) }
        for path in paths { opened(path) }
    }

    func record(_ facts: WindowFacts, for path: ObjectPath) {
        guard live.contains(path) else { return }
        self.facts[path] = facts
    }

    /// Every model id known in `path` (empty when unknown).
    func models(in path: ObjectPath) -> [UInt64] { facts[path]?.models ?? [] }
}
