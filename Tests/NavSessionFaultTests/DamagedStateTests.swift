import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Startup on a state directory damaged while the daemon was down.
///
/// Expected (Docs/persistence.md and the fault brief): a damaged file is set aside (renamed
/// `<name>.corrupt-…`) with an error log line naming it, the daemon starts, and window numbers are never
/// reused — a window opened after recovery gets a number above every number readable in the files.
@Suite(.serialized) struct DamagedStateTests {
    /// A state directory written by the real daemon, which was then SIGKILLed:
    /// state.json holds windows 1 (main, logged in) and 2 (waiting) after ~250 changes on window 1 (the
    /// daemon compacts after 256 journal lines; a clean stop does not compact); journal.jsonl holds the
    /// opening of window 3 (waiting) and two pushes on window 1 — or, with `endCompacted`, only its header.
    /// - Returns: the daemon (stopped) and window 1's last acknowledged version.
    static func prepared(endCompacted: Bool = false) async throws -> (FaultDaemon, Int) {
        let daemon = try await FaultDaemon()
        do {
            try await daemon.start()
            #expect(try await daemon.openWindow("main") == 1)
            var version = Int(try await daemon.command(1, "SwitchModel", [.string("main"), .dictionary(key: .string, value: .string, [])]))
            #expect(try await daemon.openWindow("waiting") == 2)
            version = try await compact(daemon, version: version)
            #expect(try await daemon.openWindow("waiting") == 3)
            _ = try await daemon.push(1, 3)
            version = Int(try await daemon.push(1, 4))
            if endCompacted { version = try await compact(daemon, version: version) }
            try await daemon.kill()
            let lines = try String(contentsOfFile: daemon.journalPath, encoding: .utf8).split(separator: "\n").count
            try #require(lines == (endCompacted ? 1 : 4), "unexpected journal: \(lines) lines")
            return (daemon, version)
        } catch {
            await daemon.stop()
            throw error
        }
    }

    /// Pushes and pops on window 1 until the daemon has compacted (the journal is only its header again).
    static func compact(_ daemon: FaultDaemon, version: Int) async throws -> Int {
        var version = version
        for step in 0..<1000 {
            version = Int(step % 2 == 0 ? try await daemon.push(1, step) : try await daemon.command(1, "StackDropLast", [.uint32(1)]))
            let journal = try String(contentsOfFile: daemon.journalPath, encoding: .utf8)
            if journal.split(separator: "\n").count == 1 { return version }
        }
        throw CompactionError()
    }

    struct CompactionError: Error, CustomStringConvertible {
        var description: String { "the daemon did not compact its journal within 1000 changes" }
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Restarts after `damage`, requires it to serve, and checks the log names `file` and a new window's number.
    func restart(
        _ daemon: FaultDaemon, naming file: String, newWindowAbove highest: UInt64, setAside: Bool = true
    ) async throws {
        let result = try await daemon.launch()
        try #require(result == .serving, "navsessiond did not start on damaged state: \(result); stderr:\n\(daemon.stderr)")
        #expect(daemon.stderr.contains(file), "no log line names \(file); stderr:\n\(daemon.stderr)")
        if setAside {
            #expect(!daemon.setAside(file).isEmpty, "\(file) was not set aside; directory: \(daemon.setAside(""))")
        }
        let window = try await daemon.openWindow("waiting")
        #expect(window > highest, "window \(window) opened after recovery reuses a number ≤ \(highest)")
    }

    @Test func journalTruncatedMidLineKeepsEverythingBeforeTheCut() async throws {
        let (daemon, version) = try await Self.prepared()
        do {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: daemon.journalPath))
            let lastLineStart = try #require(bytes.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
            let cut = lastLineStart + (bytes.count - lastLineStart) / 2
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: daemon.journalPath))
            // A torn last line is a write the kill interrupted: cut off and logged (not set aside).
            try await restart(daemon, naming: "journal.jsonl", newWindowAbove: 3, setAside: false)
            #expect(try await daemon.windows().prefix(3) == [1, 2, 3])
            #expect(try await daemon.version(1) == version - 1)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func snapshotTruncatedMidLineIsSetAside() async throws {
        let (daemon, _) = try await Self.prepared()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: daemon.statePath))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: daemon.statePath))
        do {
            try await restart(daemon, naming: "state.json", newWindowAbove: 3)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func snapshotOfRandomBytesIsSetAside() async throws {
        let (daemon, _) = try await Self.prepared()
        try Self.randomBytes(4096).write(to: URL(fileURLWithPath: daemon.statePath))
        do {
            try await restart(daemon, naming: "state.json", newWindowAbove: 3)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func journalOfRandomBytesIsSetAside() async throws {
        let (daemon, _) = try await Self.prepared()
        try (Self.randomBytes(4096) + Data("\n".utf8)).write(to: URL(fileURLWithPath: daemon.journalPath))
        do {
            // Window 3 existed only in the destroyed journal; state.json still shows 1 and 2.
            try await restart(daemon, naming: "journal.jsonl", newWindowAbove: 2)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    /// One valid-looking line naming window 2^63−1 once left every later
    /// `OpenWindow` without a number (the salvaged counter saturated at the top).
    @Test func scenario9AJournalLineWithWindow2To63Minus1IsSetAsideAndWindowsStillOpen() async throws {
        let (daemon, _) = try await Self.prepared()
        let line = #"{"op":"open","root":{"kind":"screen","screen":"waiting"},"scene":"waiting","sessionVersion":4,"#
            + #""window":9223372036854775807}"# + "\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: daemon.journalPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
        try handle.close()
        do {
            try await restart(daemon, naming: "journal.jsonl", newWindowAbove: 3)
            #expect(daemon.stderr.contains("9223372036854775807"), "the log does not name the number:\n\(daemon.stderr)")
            let next = try await daemon.openWindow("waiting")
            #expect(next < 100, "window numbering jumped to \(next)")
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func directoryWhereTheSnapshotBelongsIsSetAside() async throws {
        let (daemon, _) = try await Self.prepared()
        try FileManager.default.removeItem(atPath: daemon.statePath)
        try FileManager.default.createDirectory(atPath: daemon.statePath + "/inside", withIntermediateDirectories: true)
        do {
            try await restart(daemon, naming: "state.json", newWindowAbove: 3)
            var isDirectory: ObjCBool = false
            #expect(!(FileManager.default.fileExists(atPath: daemon.statePath, isDirectory: &isDirectory) && isDirectory.boolValue))
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func directoryWhereTheJournalBelongsIsSetAside() async throws {
        let (daemon, _) = try await Self.prepared()
        try FileManager.default.removeItem(atPath: daemon.journalPath)
        try FileManager.default.createDirectory(atPath: daemon.journalPath, withIntermediateDirectories: true)
        do {
            try await restart(daemon, naming: "journal.jsonl", newWindowAbove: 2)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    @Test func emptyJournalIsLoggedAndStartupProceeds() async throws {
        let (daemon, version) = try await Self.prepared(endCompacted: true)
        do {
            // Everything is in state.json, the journal holds only its header; now it is emptied.
            try Data().write(to: URL(fileURLWithPath: daemon.journalPath))
            let before = daemon.stderr
            let result = try await daemon.launch()
            try #require(result == .serving, "navsessiond did not start with a 0-byte journal: \(result); stderr:\n\(daemon.stderr)")
            let log = String(daemon.stderr.dropFirst(before.count))
            #expect(log.contains("journal.jsonl") && log.contains("warning"), "no warning names the empty journal; stderr:\n\(log)")
            #expect(try await daemon.windows() == [1, 2, 3])
            #expect(try await daemon.version(1) == version)
            #expect(try await daemon.openWindow("waiting") == 4)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }
}
