// dbus-soak: round trips through DBusKit on a private bus, to check for leaks (valgrind) and measure latency.
//
//   swift build -c release --product dbus-soak
//   .build/release/dbus-soak 100000                  # Swift client and Swift server in one process
//   .build/release/dbus-soak --serve ADDRESS         # only the server, for an external client
//
// The process never enters dispatch_main (top-level `await` would), because valgrind 3.19 crashes in
// libdispatch's signal thread; the main thread just waits on a semaphore.
import DBusKit
import Dispatch
import Foundation

func micros(_ duration: Duration) -> Int { Int(duration / .microseconds(1)) }

/// Connects, exports `org.example.Soak1` at `/org/example/Soak` and owns `org.example.Soak`.
func startServer(_ address: String) async throws -> Bus {
    let server = try await Bus.connect(.address(address))
    try await server.export([
        try Interface("org.example.Soak1", methods: [
            Interface.Method("Echo", inputs: [.init("text", .string)], outputs: [.init("text", .string)]) { call in
                [call.arguments[0]]
            },
            Interface.Method("Fail") { _ in throw BusError(.notSupported, "soak") },
        ], properties: [Interface.Property("Answer", .uint32, get: { _ in .uint32(42) })]),
    ], at: try ObjectPath("/org/example/Soak"))
    _ = try await server.requestName(try BusName("org.example.Soak"), options: [.doNotQueue])
    return server
}

func soak(calls: Int) async throws {
    let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dbus/test-session.conf").path
    let daemon = try PrivateBusDaemon.start(configFile: config)
    let server = try await startServer(daemon.address)
    let client = try await Bus.connect(.address(daemon.address))
    let name = try BusName("org.example.Soak")
    let path = try ObjectPath("/org/example/Soak")
    let interface = try InterfaceName("org.example.Soak1")
    let echo = try MemberName("Echo")
    let fail = try MemberName("Fail")
    let get = try MemberName("Get")

    var latencies: [Duration] = []
    latencies.reserveCapacity(calls)
    let clock = ContinuousClock()
    let started = clock.now
    for index in 0..<calls {
        let before = clock.now
        // Mostly plain calls, plus error replies and property reads so every reply path is exercised.
        switch index % 10 {
        case 8:
            do {
                _ = try await client.call(destination: name, path: path, interface: interface, member: fail)
            } catch is BusError {}
        case 9:
            _ = try await client.call(
                destination: name, path: path, interface: .properties, member: get,
                arguments: [.string(interface.rawValue), .string("Answer")])
        default:
            _ = try await client.call(
                destination: name, path: path, interface: interface, member: echo, arguments: [.string("ping")])
        }
        latencies.append(clock.now - before)
    }
    let total = clock.now - started
    latencies.sort()
    print("calls: \(calls)  total: \(total)  rate: \(Int(Double(calls) / (Double(micros(total)) / 1e6)))/s")
    print("p50: \(micros(latencies[calls / 2])) µs  p99: \(micros(latencies[calls * 99 / 100])) µs")

    await client.close()
    await server.close()
    daemon.stop()
}

let arguments = Array(CommandLine.arguments.dropFirst())
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        if arguments.first == "--serve", arguments.count == 2 {
            let server = try await startServer(arguments[1])
            print("serving org.example.Soak")
            await server.disconnected()
        } else {
            try await soak(calls: arguments.first.flatMap { Int($0) } ?? 10_000)
        }
    } catch {
        print("dbus-soak failed: \(error)")
    }
    finished.signal()
}
finished.wait()
