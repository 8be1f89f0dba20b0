import DBusTestSupport
import Foundation
import Testing

/// A client that writes to the bus and never reads: a raw socket (Python, no D-Bus library, which would read
/// on a thread of its own), authenticated, registered, optionally subscribed with `AddMatch`, that sends
/// `count` calls of one method and then only sleeps. What the bus holds for it is never taken.
struct NonReadingClient {
    let process: ChildProcess
    /// Its standard input: closing it ends the client.
    let input: FileHandle

    /// Starts the client on `address` and returns once it has sent everything.
    static func start(
        address: String, destination: String, path: String, interface: String, member: String, count: Int,
        match: String = "", argument: UInt64? = nil
    ) async throws -> NonReadingClient {
        try await python(
            script,
            [address, destination, path, interface, member, "\(count)", match, argument.map(String.init) ?? ""])
    }

    /// Runs a Python `script` (Debian's python3, with `arguments`) as a client process of its own, and returns once
    /// it printed `sent`; it runs until its standard input is closed (``stop()``), as the script decides.
    static func python(_ script: String, _ arguments: [String]) async throws -> NonReadingClient {
        let out = Pipe()
        let input = Pipe()
        let process = try ChildProcess.spawn(
            ["/usr/bin/python3", "-c", script] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], stdin: input.fileHandleForReading.fileDescriptor,
            stdout: out.fileHandleForWriting.fileDescriptor,
            stderr: out.fileHandleForWriting.fileDescriptor)
        try out.fileHandleForWriting.close()
        try input.fileHandleForReading.close()
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let reading = out.fileHandleForReading
        Thread.detachNewThread {
            PipeReader.forEachChunk(reading) { continuation.yield(String(decoding: $0, as: UTF8.self)) }
            continuation.finish()
        }
        let sent = await lines.first(within: Liveness.bound(.seconds(60))) { $0.contains("sent") }
        try #require(sent != nil, "the client did not send its calls: \(process.diagnosis)")
        return NonReadingClient(process: process, input: input.fileHandleForWriting)
    }

    func stop() async {
        try? input.close()
        _ = await process.terminate(within: .seconds(10))
    }

    /// D-Bus 1.0 marshalling of method calls without arguments or with one `t` (and `AddMatch`'s one string),
    /// little-endian.
    static let script = #"""
        import os, socket, struct, sys
        address, destination, path, interface, member, count, match, argument = sys.argv[1:9]
        def socket_path(address):
            for part in address.split(';')[0].split(':', 1)[1].split(','):
                key, value = part.split('=', 1)
                if key == 'path': return value
                if key == 'abstract': return '\0' + value
        s = socket.socket(socket.AF_UNIX)
        s.connect(socket_path(address))
        s.sendall(b'\0AUTH EXTERNAL ' + str(os.getuid()).encode().hex().encode() + b'\r\n')
        reply = b''
        while b'\r\n' not in reply: reply += s.recv(256)
        assert reply.startswith(b'OK'), reply
        s.sendall(b'BEGIN\r\n')
        serial = 0
        def pad(data, n): return data + b'\0' * ((-len(data)) % n)
        def string(value):
            data = value.encode()
            return struct.pack('<I', len(data)) + data + b'\0'
        def call(path, interface, member, destination, body=b'', signature=''):
            global serial
            serial += 1
            fields = b''
            for code, kind, value in [(1, 'o', path), (2, 's', interface), (3, 's', member), (6, 's', destination)] + ([(8, 'g', signature)] if signature else []):
                fields = pad(fields, 8) + bytes([code, 1]) + kind.encode() + b'\0'
                fields += bytes([len(value)]) + value.encode() + b'\0' if kind == 'g' else string(value)
            header = struct.pack('<cBBBIII', b'l', 1, 0, 1, len(body), serial, len(fields)) + fields
            return pad(header, 8) + body
        s.sendall(call('/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello', 'org.freedesktop.DBus'))
        if match:
            s.sendall(call('/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch', 'org.freedesktop.DBus', string(match), 's'))
        for _ in range(int(count)):
            if argument:
                s.sendall(call(path, interface, member, destination, struct.pack('<Q', int(argument)), 't'))
            else:
                s.sendall(call(path, interface, member, destination))
        print('sent', flush=True)
        # Until its standard input ends: the test closes it, or the test process is gone (a failed test must not
        # leave it holding pipes).
        sys.stdin.buffer.read()
        """#
}
