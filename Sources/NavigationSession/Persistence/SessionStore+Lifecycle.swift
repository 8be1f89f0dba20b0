#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore

#if canImport(Glibc)
    import Glibc
#endif

/// How the last run in a state directory ended, from the marker file a run writes at start and removes at a clean
/// stop (Docs/persistence.md, "Restore by reason").
public enum PreviousStop: Sendable, Equatable {
    /// No saved state: nothing ran here (or nothing was kept).
    case none
    /// The last run stopped cleanly (`Session.close()`, the daemon's shutdown).
    case clean
    /// The last run did not stop cleanly (SIGKILL, a crash, a power loss): its marker is still there.
    case unclean
}

extension SessionStore {
    /// The marker a running session keeps in its directory (its pid); removed at a clean stop.
    public static let runningFileName = "running"
    /// The times (Unix seconds, one a line) of the unclean stops in a row, for the crash-loop guard.
    public static let uncleanStopsFileName = "unclean-stops"
    /// The most unclean-stop times kept (the guard's largest threshold).
    static let maximumUncleanStops = 100

    /// Starts a run: says how the last one ended, records an unclean one's time, and writes this run's marker.
    ///
    /// - Parameters:
    ///   - now: the time in Unix seconds.
    ///   - window: how far back unclean stops count (seconds).
    /// - Returns: how the last run ended, and how many unclean stops in a row fall within `window` of `now`
    ///   (this one included; 0 after a clean stop).
    /// - Throws: ``SessionError/storageFailed(_:)`` when the marker cannot be written.
    public func beginRun(now: Int64, window: Int64) throws(SessionError) -> (previous: PreviousStop, recentUncleanStops: Int) {
        let previous: PreviousStop =
            files.exists(Self.runningFileName)
            ? .unclean
            : (files.exists(Self.stateFileName) || files.exists(Self.journalFileName)) ? .clean : .none
        var recent = 0
        do {
            if previous == .unclean {
                var times = uncleanStops().filter { $0 > now - window && $0 <= now }
                times.append(now)
                times = Array(times.suffix(Self.maximumUncleanStops))
                recent = times.count
                try files.writeAtomically(Array(times.map(String.init).joined(separator: "\n").utf8), to: Self.uncleanStopsFileName)
            } else if files.exists(Self.uncleanStopsFileName) {
                unlinkat(files.fd, Self.uncleanStopsFileName, 0)
            }
            try files.writeAtomically(Array("\(getpid())\n".utf8), to: Self.runningFileName)
        } catch {
            throw .storageFailed(error.message)
        }
        return (previous, recent)
    }

    /// The unclean-stop times recorded (unreadable or malformed lines are skipped).
    func uncleanStops() -> [Int64] {
        guard let bytes = try? files.read(Self.uncleanStopsFileName) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).prefix(Self.maximumUncleanStops)
            .compactMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }

    /// Ends a run cleanly: removes the marker and the unclean-stop record (best effort; called by ``Session/close()``
    /// once the snapshot is written).
    func endRun() {
        unlinkat(files.fd, Self.runningFileName, 0)
        unlinkat(files.fd, Self.uncleanStopsFileName, 0)
        _ = fsync(files.fd)
    }

    /// Moves the whole directory aside, next to itself (`<directory>.set-aside-<yyyyMMddTHHmmss.SSSZ>`), and
    /// starts an empty one at ``directory`` (locked, with this run's marker): the crash-loop guard. Call before
    /// the session loads.
    /// - Returns: the path the old state now has, and the window number above every number its files mention
    ///   (read as text, as ``quarantine(reason:)`` does), so numbers are not given out twice.
    /// - Throws: ``SessionError/storageFailed(_:)`` when the directory cannot be renamed or created again.
    public func setAside() throws(SessionError) -> (path: String, nextWindow: WindowNumber) {
        var nextWindow: WindowNumber = 1
        for name in [Self.stateFileName, Self.journalFileName] {
            guard let bytes = try? files.read(name) else { continue }
            nextWindow = max(nextWindow, Self.windowNumberBound(in: bytes).next)
        }
        let stamp = Self.timestamp()
        var target = "\(directory).set-aside-\(stamp)"
        var suffix = 1
        while FileManager.default.fileExists(atPath: target) {
            target = "\(directory).set-aside-\(stamp)-\(suffix)"
            suffix += 1
        }
        guard rename(directory, target) == 0 else {
            throw .storageFailed(FileIO.failure("cannot rename \(directory) to", target).message)
        }
        // The open directory moved with its name: open (and lock) a new one at the path.
        try reopenFiles()
        do {
            try files.writeAtomically(Array("\(getpid())\n".utf8), to: Self.runningFileName)
        } catch {
            throw .storageFailed(error.message)
        }
        return (target, nextWindow)
    }

    /// Deletes the state of other instances (the SaveRestore portal's `discard-instance-ids`): each path is removed
    /// unless it is locked by a running daemon or is not a state directory (no `state.json`, `journal.jsonl` or
    /// marker). Returns the paths removed.
    public static func discard(_ paths: [String]) -> [String] {
        var removed: [String] = []
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            guard names.contains(where: { [stateFileName, journalFileName, runningFileName, StateDirectory.lockFileName].contains($0) })
            else { continue }
            // A running daemon holds the lock: its state is not ours to delete.
            let lock = open(path + "/" + StateDirectory.lockFileName, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if lock >= 0 {
                defer { close(lock) }
                guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }
            }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed
    }
}
