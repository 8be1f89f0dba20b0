#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore

/// Reading the state directory back: snapshot, journal header, journal lines.
extension SessionStore {
    private struct Corrupt: Error {
        var reason: String
        /// Set when a file could not be read at all (permissions, I/O): startup stops instead.
        var unreadable: FileIO.Failure? = nil
    }

    /// Reads what is on disk for `applicationID`; corrupt or foreign files are moved aside.
    ///
    /// A last journal line without its newline is a write the process was killed in the middle of; it
    /// was never acknowledged, so it is cut off (logged) rather than treated as corruption.
    /// - Throws: ``SessionError/unreadableState(_:)`` when a file exists but cannot be read (permissions,
    ///   I/O errors): its content may be intact, so it is neither set aside nor replaced.
    func load(applicationID: String) throws(SessionError) -> LoadedState {
        self.applicationID = applicationID
        var salvagedNext: WindowNumber = 1
        do throws(Corrupt) {
            let snapshot = try readSnapshot(applicationID: applicationID)
            if let snapshot { salvagedNext = max(salvagedNext, snapshot.nextWindow) }
            generation = snapshot?.generation ?? 0
            var times: [Int64?] = []
            let entries = try readJournal(applicationID: applicationID, salvagedNext: &salvagedNext, times: &times)
            entriesSinceSnapshot = entries.count
            return LoadedState(snapshot: snapshot, entries: entries, times: times, nextWindow: salvagedNext)
        } catch {
            if let unreadable = error.unreadable { throw .unreadableState(unreadable.message) }
            let salvaged = quarantine(reason: error.reason)
            return LoadedState(snapshot: nil, entries: [], nextWindow: max(salvagedNext, salvaged))
        }
    }

    /// Reads the file `name`, telling unreadable files (startup stops) from damaged ones (set aside).
    private func readFile(_ name: String) throws(Corrupt) -> [UInt8] {
        do {
            return try files.read(name)
        } catch {
            throw Corrupt(reason: error.message, unreadable: error.isUnreadable ? error : nil)
        }
    }

    private func readSnapshot(applicationID: String) throws(Corrupt) -> StoredSession? {
        guard files.exists(Self.stateFileName) else { return nil }
        let bytes = try readFile(Self.stateFileName)
        snapshotBytes = bytes.count
        let state: StoredSession
        do {
            state = try JSONDecoder().decode(StoredSession.self, from: Data(bytes))
        } catch {
            throw Corrupt(reason: "\(Self.statePathName) is not a session snapshot: \(Self.describe(error))")
        }
        guard state.format == StoredSession.formatName, state.formatVersion == StoredSession.formatVersion else {
            throw Corrupt(reason: "unknown snapshot format \(state.format) \(state.formatVersion)")
        }
        guard state.applicationID == applicationID else {
            throw Corrupt(reason: "snapshot belongs to application '\(state.applicationID)', not '\(applicationID)'")
        }
        if let inconsistency = state.inconsistency {
            throw Corrupt(reason: "\(Self.statePathName) is inconsistent: \(inconsistency)")
        }
        return state
    }

    private func readJournal(
        applicationID: String, salvagedNext: inout WindowNumber, times: inout [Int64?]
    ) throws(Corrupt) -> [JournalEntry] {
        guard files.exists(Self.journalFileName) else { return [] }
        let bytes = try readFile(Self.journalFileName)
        journalBytes = bytes.count
        if bytes.isEmpty {
            // Compaction truncates the journal before writing its header: a kill in between leaves it
            // empty, and the snapshot already holds everything. Anything else that empties it is not ours.
            logger.warning(
                "the journal is empty (0 bytes): a compaction was interrupted or something truncated it; continuing from the snapshot alone",
                metadata: ["file": "\(journalPath)"])
            journalNeedsRestart = true
            return []
        }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        // The text after the last newline: empty for a complete file, else a torn write.
        let tail = lines.removeLast()
        if !tail.isEmpty {
            logger.warning(
                "dropping an incomplete last journal line (a write interrupted by a crash)",
                metadata: ["file": "\(journalPath)", "bytes": "\(tail.count)"])
            do {
                try files.truncate(Self.journalFileName, to: bytes.count - tail.count)
            } catch {
                throw Corrupt(reason: error.message)
            }
        }
        guard let headerLine = lines.first else {
            // Only a torn header: nothing to replay, and appending needs a new header first.
            journalNeedsRestart = true
            return []
        }
        let header: JournalHeader
        do {
            header = try JSONDecoder().decode(JournalHeader.self, from: Data(headerLine))
        } catch {
            throw Corrupt(reason: "journal header is not valid: \(Self.describe(error))")
        }
        guard header.format == JournalHeader.formatName, header.formatVersion == 1 else {
            throw Corrupt(reason: "unknown journal format \(header.format) \(header.formatVersion)")
        }
        guard header.applicationID == applicationID else {
            throw Corrupt(reason: "journal belongs to application '\(header.applicationID)', not '\(applicationID)'")
        }
        if header.generation < generation {
            // Compaction wrote the snapshot but crashed before replacing the journal: already included.
            logger.notice("ignoring a journal older than the snapshot", metadata: ["generation": "\(header.generation)"])
            journalNeedsRestart = true
            return []
        }
        guard header.generation == generation else {
            throw Corrupt(reason: "journal generation \(header.generation) does not follow snapshot generation \(generation)")
        }
        var entries: [JournalEntry] = []
        for (index, line) in lines.dropFirst().enumerated() where !line.isEmpty {
            do {
                let entry = try JSONDecoder().decode(JournalEntry.self, from: Data(line))
                // A number outside the stored range fails the replay at this entry; it must not raise the
                // numbering (it would exhaust it), so only storable numbers count here.
                if WindowNumbering.isStorable(entry.window), entry.window >= salvagedNext {
                    salvagedNext = entry.window + 1
                }
                entries.append(entry)
                times.append(Self.trailingTime(line))
            } catch {
                throw Corrupt(reason: "journal line \(index + 2) is not valid: \(Self.describe(error))")
            }
        }
        return entries
    }

    private static var statePathName: String { stateFileName }

    /// The `"time":<ms>` a versioned line ends with (``append(_:encodedBatch:time:)``), else `nil`.
    static func trailingTime(_ line: [UInt8]) -> Int64? {
        let key = Array(#","time":"#.utf8)
        guard line.last == UInt8(ascii: "}") else { return nil }
        var start = line.count - 1
        while start > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[start - 1]) { start -= 1 }
        guard start < line.count - 1, line.count - 1 - start <= 18, start >= key.count,
            Array(line[(start - key.count)..<start]) == key
        else { return nil }
        return Int64(String(decoding: line[start..<(line.count - 1)], as: UTF8.self))
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                return "missing key '\(ManifestDocument.keyPath(context.codingPath + [key]))'"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return "\(ManifestDocument.keyPath(context.codingPath)): \(context.debugDescription)"
            @unknown default:
                return "\(error)"
            }
        }
        if let error = error as? NavigationError { return error.message }
        return "\(error)"
    }
}
