#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore

#if canImport(Glibc)
    import Glibc
#endif

/// Saves a session in a directory so a restart, clean or after SIGKILL, restores it exactly.
///
/// Two files (`Docs/persistence.md`): `state.json`, the last full snapshot (replaced atomically), and
/// `journal.jsonl`, one JSON line per change since that snapshot. Every journal line is written with
/// write(2) before the session operation returns, so an acknowledged change survives the process being
/// killed; `syncEveryWrite` adds fsync(2) per line for power loss. When ``compactionDue`` (at least
/// ``compactionInterval`` lines, and at least as many journal bytes as the last snapshot) and on
/// ``Session/close()`` the session writes a new snapshot and starts an empty journal.
///
/// A corrupt or foreign file (bad JSON, another application id, unknown format, a journal that does not
/// replay) is renamed to `<name>.corrupt-<timestamp>`, an error is logged, and the session starts fresh.
///
/// ```swift
/// let store = try SessionStore(directory: SessionStore.defaultDirectory(applicationID: "org.navsession.Demo"))
/// let session = try Session(manifest: .demo(), store: store)
/// ```
/// Not thread-safe: owned by the session's isolation domain. All calls block on file I/O.
public final class SessionStore {
    /// The snapshot file name.
    public static let stateFileName = "state.json"
    /// The journal file name.
    public static let journalFileName = "journal.jsonl"

    /// The directory holding the files.
    public let directory: String
    /// Journal lines after which the session compacts into a new snapshot.
    public let compactionInterval: Int
    /// Whether every journal line is also fsync'ed (survives power loss, costs a disk flush per change).
    public let syncEveryWrite: Bool
    let logger: Logger

    /// Journal lines written since the last snapshot.
    public internal(set) var entriesSinceSnapshot = 0
    /// Bytes in the journal since the last snapshot, and the size of that snapshot.
    var journalBytes = 0
    var snapshotBytes = 0

    /// Whether the journal is due to be compacted into a snapshot: after ``compactionInterval`` lines, and
    /// once it holds at least as many bytes as the last snapshot. The second condition keeps the cost of
    /// snapshots proportional to what the changes wrote: a session of 10 000 models is not re-encoded every
    /// 256 changes of a few bytes each, and a restart still replays at most about one snapshot's worth.
    public var compactionDue: Bool { entriesSinceSnapshot >= compactionInterval && journalBytes >= snapshotBytes }
    /// Files moved aside by the last load, as `(original, moved-to)` paths.
    public private(set) var quarantined: [(original: String, movedTo: String)] = []

    var generation = 0
    /// Set by load when the journal must be replaced before anything is appended (it was stale).
    var journalNeedsRestart = false
    /// Set from the truncation of a new journal until its header is written: if writing the header failed,
    /// the next append starts the journal again instead of appending lines to a file without a header.
    private var journalHeaderPending = false
    var applicationID = ""
    private var journalFD: Int32 = -1
    /// The open journal's device and inode, and its path as a C string: ``lossOfFiles()`` finds the same file at
    /// that path with one `stat`.
    private var journalIdentity: (device: UInt64, inode: UInt64, path: [CChar])?
    /// Watches the path of the open journal, so ``lossOfFiles()`` looks it up only after something happened there;
    /// nil where it cannot (``JournalWatch``), and the path is then looked up before every line.
    private var journalWatch: JournalWatch?
    /// The manifest text last kept and its file name: hashing a manifest (tens of kilobytes) at every snapshot
    /// cost more than the rest of writing one. Compared by value (the same text is the same storage, so usually a
    /// pointer comparison).
    private var keptManifestName: (text: String, name: String)?
    private let encoder: JSONEncoder

    /// The open, locked directory; replaced when the one at ``directory`` was deleted or replaced meanwhile.
    private(set) var files: StateDirectory
    var statePath: String { directory + "/" + Self.stateFileName }
    var journalPath: String { directory + "/" + Self.journalFileName }

    /// Opens (creating if needed) a state directory and takes its lock for the store's lifetime.
    ///
    /// - Parameters:
    ///   - directory: where the files live, e.g. ``defaultDirectory(applicationID:environment:)``.
    ///   - compactionInterval: journal lines between snapshots (at least 1; default 256).
    ///   - syncEveryWrite: fsync every journal line (default `false`: write(2) only, enough for crashes).
    ///   - logger: receives the corrupt-file and compaction messages.
    /// - Throws: ``SessionError/storageFailed(_:)`` when the directory cannot be created or opened,
    ///   ``SessionError/unsafeStateDirectory(_:)`` when another user owns it or others may write to it,
    ///   ``SessionError/stateDirectoryLocked(path:holder:)`` when another process (another daemon) holds it.
    public init(
        directory: String, compactionInterval: Int = 256, syncEveryWrite: Bool = false,
        logger: Logger = Logger(label: "NavigationSession.Store")
    ) throws(SessionError) {
        self.directory = directory
        self.compactionInterval = max(1, compactionInterval)
        self.syncEveryWrite = syncEveryWrite
        self.logger = logger
        encoder = JSONOutput.encoder()
        files = try StateDirectory(path: directory)
    }

    deinit {
        if journalFD >= 0 { close(journalFD) }
    }

    /// `$XDG_STATE_HOME/navsession/<id>`, else `$HOME/.local/state/navsession/<id>`.
    ///
    /// A relative or empty `XDG_STATE_HOME` is ignored, as the XDG spec requires.
    public static func defaultDirectory(
        applicationID: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else {
            base = (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state"
        }
        return "\(base)/navsession/\(applicationID)"
    }

    // MARK: Writing

    /// Appends one journal line; returns after write(2) (and fsync(2) with `syncEveryWrite`) completed.
    ///
    /// - Parameter encodedBatch: for a `.batch` entry, its batch already encoded with ``encodeBatch(_:)``;
    ///   the line is then assembled around it instead of encoding the whole entry again.
    /// - Parameter time: written as the line's last key, `"time":<ms>` (the history's time).
    func append(_ entry: JournalEntry, encodedBatch: [UInt8]? = nil, time: Int64? = nil) throws(SessionError) {
        do {
            if journalFD < 0 { try startJournal(truncating: journalHeaderPending) }
            var line: [UInt8]
            if case .batch(let window, _, let version) = entry, let encodedBatch {
                line = JournalLine.batch(window: window, version: version, encodedBatch: encodedBatch)
            } else {
                line = try encodeLine(entry)
            }
            if let time, line.last == UInt8(ascii: "}") {
                line.removeLast()
                line.append(contentsOf: #","time":"#.utf8)
                DirectJSON.appendInteger(Int(time), to: &line)
                line.append(UInt8(ascii: "}"))
            }
            EmittedDocuments.shared?.record("journal", bytes: line)
            line.append(UInt8(ascii: "\n"))
            try FileIO.writeAll(journalFD, line, path: journalPath)
            journalBytes += line.count
            if syncEveryWrite { try FileIO.sync(journalFD, path: journalPath) }
        } catch let error as FileIO.Failure {
            throw .storageFailed(error.message)
        } catch {
            throw .storageFailed("cannot encode a journal entry: \(error)")
        }
        entriesSinceSnapshot += 1
    }

    /// Writes a new snapshot atomically, then starts an empty journal of the next generation.
    ///
    /// A crash between the two steps leaves a journal of an older generation, which load ignores
    /// (the snapshot already contains it).
    /// The file name a manifest's text is kept under: `manifest-<FNV-1a 64 of its bytes, hex>.json`.
    static func manifestFileName(for text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "manifest-" + String(repeating: "0", count: 16 - hex.count) + hex + ".json"
    }

    /// Keeps `text` (a manifest) in the directory under ``manifestFileName(for:)``, once; returns the name. Written
    /// before the snapshot that names it, so the snapshot never names a file that is not there.
    func keepManifest(_ text: String) throws(SessionError) -> String {
        let name: String
        if let kept = keptManifestName, kept.text == text {
            name = kept.name
        } else {
            name = Self.manifestFileName(for: text)
            keptManifestName = (text, name)
        }
        // Looked for every time: the file may have been removed since.
        guard !files.exists(name) else { return name }
        do {
            try files.writeAtomically(Array(text.utf8), to: name)
        } catch {
            throw .storageFailed(error.message)
        }
        return name
    }

    /// The text of a kept manifest, or `nil` (absent, unreadable, not the name's content).
    func keptManifest(_ name: String) -> String? {
        guard name.hasPrefix("manifest-"), name.hasSuffix(".json"), !name.contains("/"),
            let bytes = try? files.read(name), let text = String(bytes: bytes, encoding: .utf8),
            Self.manifestFileName(for: text) == name
        else { return nil }
        return text
    }

    /// Removes kept manifests other than `name` (after a snapshot naming it is on disk).
    func dropManifests(except name: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for other in names where other.hasPrefix("manifest-") && other.hasSuffix(".json") && other != name {
            try? FileManager.default.removeItem(atPath: directory + "/" + other)
        }
    }

    func writeSnapshot(_ state: StoredSession) throws(SessionError) {
        var state = state
        state.generation = generation + 1
        do {
            let bytes = try state.json()
            try files.writeAtomically(bytes, to: Self.stateFileName)
            EmittedDocuments.shared?.record("state", bytes: bytes)
            snapshotBytes = bytes.count
            generation = state.generation
            try startJournal(truncating: true)
            if let manifest = state.manifest { dropManifests(except: manifest) }
        } catch let error as FileIO.Failure {
            throw .storageFailed(error.message)
        } catch {
            throw .storageFailed("cannot encode the session snapshot: \(error)")
        }
        entriesSinceSnapshot = 0
        journalBytes = 0
        logger.debug("session snapshot written", metadata: ["generation": "\(generation)", "path": "\(statePath)"])
    }

    /// Opens the journal for appending; a new one (`truncating`, or no file yet) starts with its header.
    ///
    /// A new journal is truncated in place rather than replaced atomically: compaction calls this only
    /// after the snapshot is on disk (fsynced and renamed), which holds every change the old journal did,
    /// so a kill between the truncation and the header's write(2) leaves an empty or torn journal that
    /// load accepts and restarts, and a power loss leaves the old journal, whose older generation load
    /// ignores. This saves a temporary file, a rename and two fsyncs per compaction.
    private func startJournal(truncating: Bool) throws(FileIO.Failure) {
        closeJournal()
        guard truncating || !files.exists(Self.journalFileName) else {
            adoptJournal(try files.openForAppend(Self.journalFileName))
            return
        }
        let header = JournalHeader(
            format: JournalHeader.formatName, formatVersion: 1, applicationID: applicationID,
            generation: generation)
        var bytes = (try? encoder.encode(header)).map(Array.init) ?? []
        EmittedDocuments.shared?.record("journal", bytes: bytes)
        bytes.append(UInt8(ascii: "\n"))
        journalHeaderPending = true
        let fd = try files.openForAppend(Self.journalFileName, truncating: true)
        do {
            try FileIO.writeAll(fd, bytes, path: journalPath)
            if syncEveryWrite { try FileIO.sync(fd, path: journalPath) }
        } catch {
            close(fd)
            throw error
        }
        journalHeaderPending = false
        adoptJournal(fd)
    }

    /// Makes `fd` the journal being appended to: notes the file's identity, then watches its path, and looks the
    /// path up once after the watch is set, so a directory replaced before that is not watched in its stead.
    private func adoptJournal(_ fd: Int32) {
        journalFD = fd
        var info = stat()
        journalIdentity = fstat(fd, &info) == 0
            ? (UInt64(info.st_dev), UInt64(info.st_ino), Array(journalPath.utf8CString)) : nil
        journalWatch = journalIdentity == nil ? nil : JournalWatch(directory: directory, fileName: Self.journalFileName)
        if journalWatch != nil, !journalFoundAtItsPath() { journalWatch = nil }
    }

    /// Whether the journal's path names the open journal, still linked.
    private func journalFoundAtItsPath() -> Bool {
        guard let identity = journalIdentity else { return false }
        var info = stat()
        return identity.path.withUnsafeBufferPointer { path in
            path.baseAddress.map { stat($0, &info) == 0 } ?? false
        } && UInt64(info.st_dev) == identity.device && UInt64(info.st_ino) == identity.inode && info.st_nlink > 0
    }

    /// Why the files written so far are no longer where a restart reads them (the directory was deleted or
    /// replaced, or the journal removed), or nil. Asked before every journal write: one read of the journal's
    /// ``JournalWatch`` that finds nothing queued; after an event there (or without a watch), one `stat` of the
    /// journal's path that finds the file being written (a deleted or replaced directory, a deleted or replaced
    /// journal: the path names no file or another one); only then the checks that say which.
    func lossOfFiles() -> String? {
        if journalFD >= 0, journalIdentity != nil {
            if let journalWatch, journalWatch.undisturbed() { return nil }
            if journalFoundAtItsPath() { return nil }
        }
        if let loss = files.loss() { return "the state directory \(directory) \(loss)" }
        if journalFD >= 0 {
            var info = stat()
            if fstat(journalFD, &info) == 0, info.st_nlink == 0 { return "the journal \(journalPath) was deleted" }
        }
        return nil
    }

    /// After ``lossOfFiles()``: opens the directory at ``directory`` again if it was deleted or replaced
    /// (created if missing, its lock taken there), and closes the journal; the caller then writes a full
    /// snapshot, so nothing acknowledged before the loss is lost.
    /// - Throws: what ``StateDirectory/init(path:)`` throws; the old directory stays in use.
    func reopenFiles() throws(SessionError) {
        guard files.loss() != nil else {
            closeJournal()
            return
        }
        let reopened = try StateDirectory(path: directory)
        closeJournal()
        files = reopened
    }

    /// Lets go of the files as a killed process would (the journal closed, the lock given up), so a test can
    /// open the directory again in the same process while this store is still referenced.
    func abandonForTesting() {
        closeJournal()
        releaseLock()
    }

    /// Lets another process (or store) have the directory after a clean close; the next write takes the lock
    /// again (``StateDirectory/lock()``).
    func releaseLock() {
        files.unlock()
    }

    /// Closes the journal descriptor so the next append reopens the file (tests simulate disk failures).
    func closeJournalForTesting() {
        closeJournal()
    }

    private func closeJournal() {
        if journalFD >= 0 {
            close(journalFD)
            journalFD = -1
        }
        journalWatch = nil
    }

    private func encodeLine(_ entry: JournalEntry) throws -> [UInt8] {
        Array(try encoder.encode(entry))
    }

    /// `batch` as the journal encodes it (compact, sorted keys, slashes unescaped); `nil` if it cannot be
    /// encoded (the caller then falls back to encoding the whole entry, which reports the error).
    static func encodeBatch(_ batch: [BatchCommand]) -> [UInt8]? {
        if let direct = JournalLine.encodeDirect(batch) { return direct }
        return try? JSONOutput.encode(batch)
    }

    /// Moves the state files aside after a replay failure and resets to generation 0.
    /// Moves the state files aside; returns the window number above every number they mention, so
    /// numbers stay unique even though the files could not be loaded (read as text, not parsed).
    @discardableResult
    func quarantine(reason: String) -> WindowNumber {
        closeJournal()
        var salvaged: WindowNumber = 1
        for name in [Self.stateFileName, Self.journalFileName] {
            guard let bytes = try? files.read(name) else { continue }
            let bound = Self.windowNumberBound(in: bytes)
            salvaged = max(salvaged, bound.next)
            if let ignored = bound.ignored {
                logger.warning(
                    "a number in a set-aside file is above the window numbers a saved state may name; not counted",
                    metadata: ["file": "\(files.full(name))", "number": "\(ignored)", "highest": "\(WindowNumbering.highestStored)"])
            }
        }
        let stamp = Self.timestamp()
        for name in [Self.stateFileName, Self.journalFileName] where files.exists(name) {
            let path = files.full(name)
            var target = "\(name).corrupt-\(stamp)"
            var suffix = 1
            while files.exists(target) {
                target = "\(name).corrupt-\(stamp)-\(suffix)"
                suffix += 1
            }
            do {
                try files.move(name, to: target)
                let target = files.full(target)
                quarantined.append((path, target))
                logger.error(
                    "corrupt or foreign session state moved aside; starting fresh",
                    metadata: ["file": "\(path)", "movedTo": "\(target)", "reason": "\(reason)"])
            } catch {
                logger.error(
                    "corrupt session state could not be moved aside; starting fresh",
                    metadata: ["file": "\(path)", "reason": "\(reason)", "error": "\(error.message)"])
            }
        }
        generation = 0
        entriesSinceSnapshot = 0
        journalBytes = 0
        snapshotBytes = 0
        return salvaged
    }

    /// One more than the largest number after a `"window":`, `"number":` or `"nextWindow":` key in
    /// `bytes` (minus one for `nextWindow`, which already is "one more"); 1 when there is none.
    ///
    /// Numbers outside the stored range (``WindowNumbering/highestStored``) are impossible values: they are
    /// left out, and the first one is returned as `ignored` so the caller can log it.
    static func windowNumberBound(in bytes: [UInt8]) -> (next: WindowNumber, ignored: UInt64?) {
        let highest = UInt64(WindowNumbering.highestStored)
        var bound: UInt64 = 1
        var ignored: UInt64?
        for key in ["\"window\":", "\"number\":", "\"nextWindow\":"] {
            let pattern = Array(key.utf8)
            let isNext = key.contains("next")
            var index = 0
            while index + pattern.count <= bytes.count {
                guard bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) else {
                    index += 1
                    continue
                }
                index += pattern.count
                var value: UInt64 = 0
                var digits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    // Past 19 digits the value is only "too large"; saturate instead of overflowing.
                    value = digits < 19 ? value * 10 + UInt64(bytes[index] - 0x30) : .max
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { continue }
                guard value <= highest + (isNext ? 1 : 0) else {
                    if ignored == nil { ignored = value }
                    continue
                }
                bound = max(bound, isNext ? value : value + 1)
            }
        }
        return (WindowNumber(bound), ignored)
    }

    /// Now in UTC as `yyyyMMdd'T'HHmmss.SSS'Z'` (ISO 8601's basic format; no locale involved).
    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(
                dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted,
                includingFractionalSeconds: true, timeZone: .gmt))
    }
}
