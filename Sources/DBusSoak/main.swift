// dbus-soak: N round trips through DBusKit on a private bus, to check for leaks (valgrind) and measure latency.
//
//   swift build -c release --product dbus-soak
//   valgrind --leak-check=full .build/release/dbus-soak 100000
import DBusKit
import Foundation

import Dispatch

/// Runs the soak; `main` below blocks on it so the process never enters dispatch_main, which valgrind 3.19
/// cannot follow (it crashes inside libdispatch's signal thread).
func micros(_ duration: Duration) -> Int { Int(duration / .microseconds(1)) }

func soak() async throws {
    let calls = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
    let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dbus/test-session.conf").path

    let daemon = try PrivateBusDaemon.start(configFile: config)
    let server = try await Bus.connect(.address(daemon.address))
    let client = try await Bus.connect(.address(daemon.address))
    let path = try ObjectPath("/org/example/Soak")
    let interface = try InterfaceName("org.example.Soak1")
    let echo = try MemberName("Echo")
    try await server.export([
        try Interface("org.example.Soak1", methods: [
            Interface.Method("Echo", inputs: [.init("text", .string)], outputs: [.init("text", .string)]) { call in
                [call.arguments[0]]
            },
            Interface.Method("Fail") { _ in throw BusError(.notSupported, "soak") },
        ], properties: [Interface.Property("Answer", .uint32, get: { _ in .uint32(42) })]),
    ], at: path)
    let name = try BusName("org.example.Soak")
    _ = try await server.requestName(name, options: [.doNotQueue])

    var latencies: [Duration] = []
    latencies.reserveCapacity(calls)
    let clock = ContinuousClock()
    let started = clock.now
    for index in 0..<calls {
        let before = clock.now
        // Mostly plain calls, plus errors and property reads so every reply path is exercised.
        switch index % 10 {
        case 8:
            do {
                _ = try await client.call(destination: name, path: path, interface: interface, member: try MemberName("Fail"))
            } catch is BusError {}
        case 9:
            _ = try await client.call(
                destination: name, path: path, interface: .properties, member: try MemberName("Get"),
                arguments: [.string(interface.rawValue), .string("Answer")])
        default:
            _ = try await client.call(destination: name, path: path, interface: interface, member: echo, arguments: [.string("ping")])
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

let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await soak()
    } catch {
        print("dbus-soak failed: \(error)")
    }
    finished.signal()
}
finished.wait()
