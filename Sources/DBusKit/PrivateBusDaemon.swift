internal import ProcessSupport
import FoundationEssentials
import Glibc
import Synchronization

/// A `dbus-daemon` of our own, for tests and for running without a session bus.
///
/// It is started from a config file (e.g. the repository's `dbus/test-session.conf`) through a small `sh`
/// guard that kills the daemon as soon as our end of its stdin pipe closes, so the daemon never outlives this
/// process, even when the process is killed. Children get an environment without `DBUS_SESSION_BUS_ADDRESS`,
/// `DBUS_STARTER_*` and `DISPLAY`, so nothing reaches the user's real session.
///
/// ```swift
/// let daemon = try PrivateBusDaemon.start(configFile: "dbus/test-session.conf")
/// let bus = try await Bus.connect(.address(daemon.address))
/// daemon.stop()
/// ```
public final class PrivateBusDaemon: Sendable {
    /// The address to connect to, as printed by the daemon.
    public let address: String
    /// The process id of the guard process (the daemon's parent, and its process group leader).
    public let processID: Int32
    private let guardPipe: Mutex<Int32>

    private init(address: String, processID: Int32, guardPipe: Int32) {
        self.address = address
        self.processID = processID
        self.guardPipe = Mutex(guardPipe)
    }

    deinit {
        stop()
    }

    /// Starts `dbus-daemon --nofork --print-address=1 --config-file=<temp copy>` and waits for its address.
    ///
    /// - Parameters:
    ///   - configFile: the bus configuration to copy.
    ///   - serviceDirectories: extra `<servicedir>` entries for activation tests.
    ///   - timeout: how long to wait for the address.
    /// - Throws: ``ConnectionError`` `.daemonFailed` when the config cannot be read or the daemon does not
    ///   print an address in time.
    public static func start(
        configFile: String, serviceDirectories: [String] = [], timeout: Duration = .seconds(10)
    ) throws -> PrivateBusDaemon {
        guard let config = try? String(contentsOfFile: configFile, encoding: .utf8), config.contains("</busconfig>")
        else { throw ConnectionError(.daemonFailed, "cannot read a <busconfig> from \(configFile)") }
        return try start(configuration: config, serviceDirectories: serviceDirectories, timeout: timeout)
    }

    /// The configuration of a throwaway session bus, as text: the repository's `dbus/test-session.conf`
    /// (a test keeps the two equal). `navsessiond --private-bus` starts its bus from this text, so an installed
    /// daemon needs no file from the checkout it was built in, nor one installed beside it.
    public static let sessionConfiguration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <!-- A throwaway session bus for the tests and for navsessiond's private-bus option.
             No standard_session_servicedirs: nothing from the real user session can be activated.
             PrivateBusDaemon inserts servicedir entries before the closing busconfig tag when asked to. -->
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

    /// ``start(configFile:serviceDirectories:timeout:)`` from the configuration's text (e.g.
    /// ``sessionConfiguration``) rather than a file.
    public static func start(
        configuration: String, serviceDirectories: [String] = [], timeout: Duration = .seconds(10)
    ) throws -> PrivateBusDaemon {
        var config = configuration
        guard let end = config.ranges(of: "</busconfig>").last
        else { throw ConnectionError(.daemonFailed, "the bus configuration has no </busconfig>") }
        let entries = serviceDirectories.map { "  <servicedir>\(Bus.escape($0))</servicedir>\n" }.joined()
        config.insert(contentsOf: entries, at: end.lowerBound)
        let temporary = getenv("TMPDIR").map { String(cString: $0) + "/" } ?? "/tmp/"
        let configPath = temporary + "dbuskit-\(getpid())-\(UUID().uuidString).conf"
        do {
            try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        } catch {
            throw ConnectionError(.daemonFailed, "cannot write \(configPath): \(error)")
        }
        defer { unlink(configPath) }

        guard let stdinEnds = ChildSpawn.pipe() else { throw ConnectionError(.daemonFailed, "pipe failed") }
        guard let stdoutEnds = ChildSpawn.pipe() else {
            close(stdinEnds.read); close(stdinEnds.write)
            throw ConnectionError(.daemonFailed, "pipe failed")
        }
        let stdinPipe = [stdinEnds.read, stdinEnds.write]
        let stdoutPipe = [stdoutEnds.read, stdoutEnds.write]
        // The daemon is the guard's child; the guard kills it when its stdin (our pipe) reaches EOF.
        let script = """
            dbus-daemon --nofork --print-address=1 --config-file="$1" </dev/null 2>/dev/null & daemon=$!
            read -r _ || true
            kill -9 "$daemon" 2>/dev/null
            wait "$daemon" 2>/dev/null
            """
        let pid: pid_t
        do {
            pid = try spawn(
                ["/bin/sh", "-c", script, "dbuskit-private-bus", configPath],
                stdin: stdinPipe[0], stdout: stdoutPipe[1])
        } catch {
            for fd in stdinPipe + stdoutPipe { close(fd) }
            throw error
        }
        close(stdinPipe[0])
        close(stdoutPipe[1])
        defer { close(stdoutPipe[0]) }
        let daemon = PrivateBusDaemon(address: "", processID: pid, guardPipe: stdinPipe[1])
        guard let line = readLine(from: stdoutPipe[0], timeout: timeout), !line.isEmpty else {
            daemon.stop()
            throw ConnectionError(.daemonFailed, "dbus-daemon printed no address")
        }
        daemon.guardPipe.withLock { $0 = -1 }
        return PrivateBusDaemon(address: line, processID: pid, guardPipe: stdinPipe[1])
    }

    /// Kills the daemon (SIGKILL to its process group) and reaps the guard on a thread of its own. Idempotent;
    /// never blocks the caller, so it is safe in `defer` blocks of async code and in deinit.
    public func stop() {
        let fd = guardPipe.withLock { fd -> Int32 in
            let old = fd
            fd = -1
            return old
        }
        guard fd >= 0 else { return }
        close(fd)
        kill(-processID, SIGKILL)
        let guardProcess = processID
        let reap: @Sendable () -> Void = {
            var status: Int32 = 0
            while waitpid(guardProcess, &status, 0) < 0 && errno == EINTR {}
        }
        if !DetachedThread.start(name: "reap bus", reap) { reap() }
    }

    /// Spawns the guard in a process group of its own (killed with the daemon by ``stop()``).
    static func spawn(_ arguments: [String], stdin: Int32, stdout: Int32) throws(ConnectionError) -> pid_t {
        do {
            return try ChildSpawn.spawn(
                arguments, environment: ChildSpawn.cleanEnvironment(), stdin: stdin, stdout: stdout, stderr: nil,
                newProcessGroup: true)
        } catch {
            throw ConnectionError(.daemonFailed, error.description)
        }
    }

    /// The current environment minus everything that could point a child at the user's real session.
    public static func cleanEnvironment(adding extra: [String: String] = [:]) -> [String] {
        ChildSpawn.cleanEnvironment(adding: extra)
    }

    /// Reads one line, giving up after `timeout`.
    private static func readLine(from fd: Int32, timeout: Duration) -> String? {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return nil }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            let ready = poll(&pollfd, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
