#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore

/// Restore by reason and the crash-loop guard (Docs/persistence.md, "Restore by reason").
extension Session {
    /// Decides why the session starts and writes the run's marker: `reason` when given, else from how the last
    /// run ended (no saved state: `pristine`; a clean stop: `launch`; an unclean one: `recover`). After the
    /// manifest's `restore.crashLoop.uncleanStops` unclean stops in a row within `withinSeconds`, the directory
    /// is set aside (``SessionStore/setAside()``) and the session starts clean.
    func beginRun(_ store: SessionStore, reason: RestoreReason?) throws(SessionError) {
        let guardRule = manifest.restore.crashLoop
        let now = Int64(Date().timeIntervalSince1970)
        let run = try store.beginRun(now: now, window: Int64(guardRule?.withinSeconds ?? 60))
        switch run.previous {
        case .none: restoreReason = reason ?? .pristine
        case .clean: restoreReason = reason ?? .launch
        case .unclean: restoreReason = reason ?? .recover
        }
        logger.info(
            "starting", metadata: ["restoreReason": "\(restoreReason.rawValue)", "previousStop": "\(run.previous)",
            "policy": "\(manifest.restore.policy(for: restoreReason).rawValue)"])
        guard let guardRule, run.previous == .unclean, run.recentUncleanStops >= guardRule.uncleanStops else { return }
        let (path, nextWindow) = try store.setAside()
        restoreSetAside = path
        nextWindowNumber = max(nextWindowNumber, nextWindow)
        logger.error(
            "crash loop: the daemon stopped uncleanly \(run.recentUncleanStops) times within \(guardRule.withinSeconds) s; starting clean with the previous state set aside",
            metadata: ["setAside": "\(path)", "directory": "\(store.directory)"])
    }

    /// Applies the restore policy to the windows just restored, through the ordinary commands (so marks, guards,
    /// lifecycle and the journal apply): `withoutPresentations` runs `dismissAll` in every window,
    /// `entryStates` opens a fresh window of each window's scene and closes the old one, `nothing` closes every
    /// window. A window a command cannot change (a protected model) stays as it was, logged. Costs O(windows),
    /// once, at start; `everything` costs nothing.
    func applyRestorePolicy(_ policy: RestorePolicy) {
        guard policy != .everything, !order.isEmpty else { return }
        for window in windows {
            do throws(SessionError) {
                switch policy {
                case .everything:
                    return
                case .withoutPresentations:
                    try execute(window: window.number, command: .dismissAll, animated: false)
                case .entryStates:
                    // Checked first: a scene that cannot open without parameters keeps its window.
                    _ = try prepareWindow(scene: window.scene, params: [:])
                    try dismissWindow(window.number)
                    var events: [SessionEvent] = []
                    _ = try openWindow(scene: window.scene, params: [:], events: &events)
                case .nothing:
                    try dismissWindow(window.number)
                }
            } catch {
                logger.warning(
                    "the restore policy left a window as it was", metadata: [
                        "window": "\(window.number)", "policy": "\(policy.rawValue)", "error": "\(error.message)",
                    ])
            }
        }
    }

    /// Makes everything durable without stopping (the SaveRestore portal's `SaveHint`): a snapshot written and
    /// fsynced (temporary file, fsync, rename, fsync of the directory), an empty journal after it; the lock and
    /// the run's marker stay. No-op without a store.
    /// - Throws: ``SessionError/storageFailed(_:)``; the journal still holds every change then.
    public func checkpoint() throws(SessionError) {
        guard let store else { return }
        try writeCleanSnapshot(store)
    }
}
