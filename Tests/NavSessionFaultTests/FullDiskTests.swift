import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// The state directory's disk fills up while the daemon runs: a change whose write fails must be answered
/// with `org.navsession.Error.StorageFailed`, never acknowledged; every acknowledged change must survive a
/// SIGKILL; once there is space again, changes are acknowledged and durable again.
///
/// Uses a 64 KiB tmpfs (`mount -t tmpfs -o size=64k`), which needs root; skipped when mounting fails.
@Suite(.serialized) struct FullDiskTests {
    /// Mounts a small tmpfs and returns its directory, or skips the test.
    static func mountSmallDisk() async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mount = try? await ToolRunner.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory], environment: [:], timeout: .seconds(30))
        guard let mount, mount.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            try Test.cancel("mount -t tmpfs failed (needs root with CAP_SYS_ADMIN): \(mount.map(\.description) ?? "cannot run mount")")
        }
        return directory
    }

    static func unmount(_ directory: String) async {
        let umount = try? await ToolRunner.run("/bin/umount", [directory], environment: [:], timeout: .seconds(30))
        if umount?.status == 0 { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Writes zeros to `path` until the disk is full; returns the bytes written.
    static func fill(_ path: String) -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 1024)
        var total = 0
        while true {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            total += written
        }
        // Single bytes into the last partial block.
        var byte: UInt8 = 0
        while write(fd, &byte, 1) == 1 { total += 1 }
        return total
    }

    @Test func fullDiskAnswersStorageFailedAndNothingAcknowledgedIsLost() async throws {
        let disk = try await Self.mountSmallDisk()
        let daemon: FaultDaemon
        do {
            daemon = try await FaultDaemon(stateDirectory: disk + "/state")
        } catch {
            await Self.unmount(disk)
            throw error
        }
        do {
            try await daemon.start()
            #expect(try await daemon.openWindow("main") == 1)
            try await daemon.command(1, "SwitchModel", [.string("main"), .dictionary(key: .string, value: .string, [])])

            let filler = disk + "/filler"
            #expect(Self.fill(filler) > 0)
            var acknowledged: UInt64 = 1
            var failures = 0
            for id in 1...200 {
                do {
                    acknowledged = try await daemon.push(1, id)
                } catch let error as BusError {
                    #expect(error.name.rawValue == "org.navsession.Error.StorageFailed", "\(error)")
                    failures += 1
                }
                // Keep the stack short: pop what was pushed (a pop is a change too).
                do {
                    acknowledged = try await daemon.command(1, "StackDropLast", [.uint32(1)])
                } catch let error as BusError {
                    #expect(
                        ["org.navsession.Error.StorageFailed", "org.navsession.Error.AlreadyAtRoot"].contains(error.name.rawValue),
                        "\(error)")
                    if error.name.rawValue.hasSuffix("StorageFailed") { failures += 1 }
                }
            }
            #expect(failures > 0, "no write failed on a full disk")

            // SIGKILL while the disk is full, then make room and restart: every acknowledged change is there.
            try await daemon.kill()
            try FileManager.default.removeItem(atPath: filler)
            try await daemon.start()
            let restored = try await daemon.version(1)
            #expect(restored >= Int(acknowledged), "acknowledged v\(acknowledged), restored v\(restored)")

            // With space again, changes are acknowledged and survive a SIGKILL.
            let pushed = try await daemon.push(1, 1000)
            #expect(pushed == UInt64(restored) + 1)
            let before = try await daemon.state(1)
            try await daemon.kill()
            try await daemon.start()
            #expect(try await daemon.state(1) == before)
        } catch {
            await daemon.stop()
            await Self.unmount(disk)
            throw error
        }
        await daemon.stop()
        await Self.unmount(disk)
    }
}
