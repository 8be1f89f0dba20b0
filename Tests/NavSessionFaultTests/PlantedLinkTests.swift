import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Symbolic links planted at the names the daemon writes in its state directory: nothing outside the directory
/// is ever written through them.
@Suite(.serialized) struct PlantedLinkTests {
    /// A file outside the state directory, with content the test checks afterwards.
    static func victim() throws -> (path: String, content: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-victim-\(UUID().uuidString)").path
        let content = "not the daemon's\n"
        try content.write(toFile: path, atomically: false, encoding: .utf8)
        return (path, content)
    }

    @Test func aLinkAtTheTemporarySnapshotIsRemovedNotWrittenThrough() async throws {
        let (target, content) = try Self.victim()
        defer { try? FileManager.default.removeItem(atPath: target) }
        let daemon = try await FaultDaemon()
        do {
            try await daemon.start()
            #expect(try await daemon.openWindow("main") == 1)
            // A clean stop writes the snapshot through state.json.tmp.
            try FileManager.default.createSymbolicLink(atPath: daemon.statePath + ".tmp", withDestinationPath: target)
            try await daemon.terminate()
            #expect(try String(contentsOfFile: target, encoding: .utf8) == content, "the link's target was written")
            let attributes = try FileManager.default.attributesOfItem(atPath: daemon.statePath)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular)
            #expect(!FileIOProbe.isLink(daemon.statePath + ".tmp"))
            try await daemon.start()
            #expect(try await daemon.windows() == [1])
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    /// A link at a file the daemon reads at startup stops it with an error naming the file.
    @Test(arguments: ["journal.jsonl", "state.json"])
    func aLinkAtAStateFileIsRefusedAndNamed(_ file: String) async throws {
        let (target, content) = try Self.victim()
        defer { try? FileManager.default.removeItem(atPath: target) }
        let daemon = try await FaultDaemon()
        do {
            try FileManager.default.createDirectory(atPath: daemon.stateDirectory, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: daemon.stateDirectory + "/" + file, withDestinationPath: target)
            let result = try await daemon.launch()
            guard case .exited(let exit) = result else {
                Issue.record("navsessiond started with a link at \(file); stderr:\n\(daemon.stderr)")
                await daemon.stop()
                return
            }
            #expect(exit != .exited(0))
            #expect(daemon.stderr.contains(file), "\(daemon.stderr)")
            #expect(daemon.stderr.contains("symbolic link"), "\(daemon.stderr)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == content, "the link's target was written")
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }
}

/// `lstat` from a test: whether `path` is a symbolic link.
enum FileIOProbe {
    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
