import Foundation

/// The private `dbus-daemon` the whole run talks through (reference dbus.md §2.2): its own
/// config, so no developer session bus and no activatable services are involved.
struct BenchBus {
    let process: Process
    let address: String

    /// The whole session config: default limits, EXTERNAL auth on a tmpdir socket, allow all.
    static let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """

    /// Starts the bus and returns once it has printed its address, which it does only when it listens.
    static func start(in workspace: Workspace, timeout: TimeInterval = 10) throws -> BenchBus {
        let configPath = workspace.path("bus.conf")
        do {
            try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        } catch {
            throw BenchError.failed("cannot write \(configPath): \(error.localizedDescription)")
        }
        let stdout = Pipe()
        let process = try Tool.start("dbus-daemon", ["--nofork", "--print-address=1", "--config-file=\(configPath)"],
                                     busAddress: nil, logName: "dbus-daemon.log", stdout: stdout, in: workspace)
        guard let line = readLine(from: stdout.fileHandleForReading.fileDescriptor, timeout: timeout),
              line.hasPrefix("unix:")
        else {
            throw BenchError.failed("dbus-daemon printed no address: \(workspace.tail("dbus-daemon.log"))")
        }
        // Keep the pipe's read end open for the bus's lifetime (it is owned by `process`), so a
        // late write from the daemon cannot hit SIGPIPE.
        return BenchBus(process: process, address: line)
    }

    /// Waits until `name` has an owner, polling the bus with `dbus-send` (reference §2.2:
    /// readiness is asked of the bus, never assumed after a sleep). Fails early if `owner`
    /// (the process expected to take the name) exits.
    func waitForName(_ name: String, owner: Process, logName: String, timeout: TimeInterval,
                     in workspace: Workspace) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let result = try Tool.run("dbus-send", [
                "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
            ], busAddress: address, in: workspace)
            guard result.status == 0 else {
                throw BenchError.failed("NameHasOwner(\(name)) failed: \(result.stderr)")
            }
            if result.stdout.contains("true") { return }
            if !owner.isRunning {
                let log = workspace.tail(logName)
                throw BenchError.failed("exited with status \(owner.terminationStatus) before owning \(name)"
                    + (log.isEmpty ? "" : ": \(log)"))
            }
            if Date() >= deadline {
                throw BenchError.failed("did not own \(name) within \(Int(timeout)) s")
            }
            usleep(20_000)  // poll interval between NameHasOwner queries, not a readiness assumption
        }
    }

    /// Reads one line from `fd`, giving up after `timeout` seconds or at end of file.
    private static func readLine(from fd: Int32, timeout: TimeInterval) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") {
                return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            bytes.append(byte)
        }
    }
}
