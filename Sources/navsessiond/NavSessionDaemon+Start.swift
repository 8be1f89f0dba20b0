#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationSession

/// The instance and restore reason the daemon starts with, and discarding instances' state.
struct StartOptions {
    /// The instance id (`--instance`, `$NAVSESSION_INSTANCE`, the portal's), or nil for the application's state.
    var instance: String?
    /// Why the daemon starts, when it is told (`--restore-reason`, the portal); nil: from the state directory.
    var reason: RestoreReason?
}

extension NavSessionDaemon {
    /// `--instance` (else `$NAVSESSION_INSTANCE`, which D-Bus activation environments can set), `--restore-reason`
    /// and `--save-restore`, validated: exit status 1 with one line for a bad value.
    func startOptions() throws -> StartOptions {
        let environment = ProcessInfo.processInfo.environment["NAVSESSION_INSTANCE"].flatMap { $0.isEmpty ? nil : $0 }
        let instance = self.instance ?? environment
        if let instance, let problem = InstanceID.problem(with: instance) { throw fail("invalid --instance: \(problem)", status: ExitStatus.usage) }
        var reason: RestoreReason?
        if let restoreReason {
            guard let known = RestoreReason(rawValue: restoreReason) else {
                throw fail("unknown restore reason '\(restoreReason)' (pristine, launch, recover or restore)", status: ExitStatus.usage)
            }
            reason = known
        }
        guard saveRestore == "auto" || saveRestore == "off" else {
            throw fail("--save-restore takes auto or off (got '\(saveRestore)')", status: ExitStatus.usage)
        }
        return StartOptions(instance: instance, reason: reason)
    }

    /// Deletes the state of the instances the portal discards (never this run's own, nor one a daemon holds).
    func discard(_ registration: SaveRestorePortal.Registration, application: Manifest, logger: Logger) {
        let base = stateDirectory(for: application.applicationID)
        let paths = registration.discardInstanceIDs.filter { $0 != registration.instanceID && $0 != instance }
            .map { InstanceID.directory(base, instance: $0) }
        for path in SessionStore.discard(paths) {
            logger.notice("deleted the state of an instance the SaveRestore portal discarded", metadata: ["path": "\(path)"])
        }
    }
}
