import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Startup on state the daemon may not read: it must stop (non-zero exit) with an error naming the file,
/// and leave the file where it is — unreadable is not corrupt, and starting fresh would lose everything.
///
/// Root reads any file regardless of its mode, so as root the daemon runs as `nobody` through
/// `setpriv --reuid=65534 --regid=65534 --clear-groups` on a state directory handed to that user.
@Suite(.serialized) struct UnreadableStateTests {
    static let nobody: UInt32 = 65534
    static let setpriv = "/usr/bin/setpriv"

    /// The wrapper that runs the daemon as a user the file modes apply to, or a skip.
    static func wrapper() throws -> [String] {
        guard getuid() == 0 else { return [] }
        guard FileManager.default.isExecutableFile(atPath: setpriv) else {
            try Test.cancel("running as root and \(setpriv) is missing: cannot run the daemon as a user file modes apply to")
        }
        return [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
    }

    /// A state directory with state.json (windows 1 and 2) and a journal (window 3), then `file` made unreadable.
    func check(unreadable file: String) async throws {
        let wrapper = try Self.wrapper()
        let (prepared, _) = try await DamagedStateTests.prepared()
        let directory = prepared.stateDirectory
        await prepared.stop(keepState: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if getuid() == 0 {
            // The daemon runs as nobody: the directory is its own; only the one file is unreadable.
            for path in [directory] + ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).map({ directory + "/" + $0 }) {
                #expect(chown(path, Self.nobody, Self.nobody) == 0, "chown \(path): \(String(cString: strerror(errno)))")
            }
            // The test runner's temporary directory may not be traversable by nobody.
            var ancestor = (directory as NSString).deletingLastPathComponent
            while ancestor != "/" && !ancestor.isEmpty {
                guard access(ancestor, X_OK) == 0, (try? FileManager.default.attributesOfItem(atPath: ancestor)[.posixPermissions] as? Int).map({ $0 & 0o001 != 0 }) ?? false else {
                    try Test.cancel("\(ancestor) is not traversable by other users")
                }
                ancestor = (ancestor as NSString).deletingLastPathComponent
            }
        }
        let target = directory + "/" + file
        #expect(chmod(target, 0) == 0)

        let daemon = try await FaultDaemon(stateDirectory: directory, anyUser: true)
        let result = try await daemon.launch(through: wrapper)
        let log = daemon.stderr
        await daemon.stop(keepState: true)
        guard case .exited(let status) = result else {
            Issue.record("navsessiond started although \(file) is unreadable; stderr:\n\(log)")
            return
        }
        #expect(status != .exited(0))
        #expect(log.contains(file), "the error does not name \(file); stderr:\n\(log)")
        #expect(!log.contains("cannot connect"), "it failed for another reason; stderr:\n\(log)")
        #expect(FileManager.default.fileExists(atPath: target), "\(file) was moved away")
    }

    @Test func unreadableSnapshotStopsStartup() async throws {
        try await check(unreadable: "state.json")
    }

    @Test func unreadableJournalStopsStartup() async throws {
        try await check(unreadable: "journal.jsonl")
    }
}
