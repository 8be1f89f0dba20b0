import Foundation
import Logging
import NavigationCore

/// Append-only persistence of a session: every acknowledged change is one JSON line, written (with
/// `write(2)`, so it survives a SIGKILL of the daemon) before the reply goes out.
///
/// At startup the journal is replayed and then compacted: rewritten as one snapshot line per open
/// window, to a temporary file renamed over the old one. A torn last line (a kill mid-write) is skipped.
final class SessionJournal {
    /// The restored state: windows by number with their scenes, the next window number, the session version.
    struct Restored {
        var windows: [(number: Int, scene: String, window: NavigationWindow)] = []
        var nextNumber = 1
        var version: UInt64 = 0
    }

    private let path: String
    private var descriptor: Int32 = -1
    private let logger: Logger

    /// Opens (creating the directory if needed) the journal in `directory`.
    init(directory: String, logger: Logger) throws(ServiceError) {
        self.logger = logger
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .persistenceFailed("cannot create \(directory): \(error.localizedDescription)")
        }
        path = (directory as NSString).appendingPathComponent("session.journal")
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Replays the journal into windows built with `configuration`.
    func restore(configuration: WindowConfiguration) -> Restored {
        var restored = Restored()
        guard let data = FileManager.default.contents(atPath: path) else { return restored }
        let decoder = JSONDecoder()
        var order: [Int] = []
        var windows: [Int: (scene: String, window: NavigationWindow)] = [:]
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            guard let record = try? decoder.decode(JournalRecord.self, from: Data(line)) else {
                logger.warning("skipping unreadable journal line \(index + 1)")
                continue
            }
            if let next = record.next { restored.nextNumber = max(restored.nextNumber, next) }
            if let version = record.version { restored.version = version }
            if let number = record.open, let scene = record.scene, let snapshot = record.snapshot {
                do {
                    let window = try NavigationWindow(snapshot: snapshot, configuration: configuration)
                    windows[number] = (scene, window)
                    order.append(number)
                    restored.nextNumber = max(restored.nextNumber, number + 1)
                    if record.next == nil { restored.version += 1 }
                } catch {
                    logger.warning("skipping window \(number): \(error)")
                }
            }
            if let number = record.window, let cause = record.cause, let entry = windows[number] {
                do {
                    switch cause {
                    case .commands(let batch): try entry.window.apply(batch)
                    case .report(let report): try entry.window.report(report)
                    }
                    _ = entry.window.drainEffects()
                    _ = entry.window.drainMessages()
                } catch {
                    logger.warning("journal line \(index + 1) no longer applies to window \(number): \(error)")
                }
            }
            if let number = record.close, windows.removeValue(forKey: number) != nil {
                order.removeAll { $0 == number }
                restored.version += 1
            }
        }
        restored.windows = order.compactMap { number in windows[number].map { (number, $0.scene, $0.window) } }
        return restored
    }

    /// Rewrites the journal as the given state and opens it for appending.
    func compact(windows: [(number: Int, scene: String, window: NavigationWindow)], nextNumber: Int, version: UInt64)
        throws(ServiceError)
    {
        var text = Self.line(JournalRecord(next: nextNumber, version: version))
        for entry in windows {
            text += Self.line(JournalRecord(open: entry.number, scene: entry.scene, snapshot: entry.window.snapshot()))
        }
        let temporary = path + ".tmp"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw .persistenceFailed("cannot write \(temporary): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else { throw .persistenceFailed("cannot rename \(temporary) to \(path)") }
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw .persistenceFailed("cannot open \(path) for appending") }
    }

    /// Records a window opened (its number and initial snapshot).
    func recordOpen(number: Int, scene: String, window: NavigationWindow) throws(ServiceError) {
        try append(Self.line(JournalRecord(open: number, scene: scene, snapshot: window.snapshot())))
    }

    /// Records a change of window `number` by its already-encoded cause JSON.
    func recordChange(number: Int, causeJSON: String) throws(ServiceError) {
        try append("{\"window\":\(number),\"cause\":\(causeJSON)}\n")
    }

    /// Records a window closed.
    func recordClose(number: Int) throws(ServiceError) {
        try append("{\"close\":\(number)}\n")
    }

    private func append(_ text: String) throws(ServiceError) {
        guard descriptor >= 0 else { throw .persistenceFailed("the journal is not open") }
        var bytes = Array(text.utf8)
        let total = bytes.count
        var written = 0
        while written < total {
            let result = bytes.withUnsafeMutableBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + written }, total - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .persistenceFailed("write to \(path) failed (errno \(errno))")
            }
            written += result
        }
        bytes.removeAll()
    }

    private static func line(_ record: JournalRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else { return "" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
