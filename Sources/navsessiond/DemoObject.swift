import DBusKit
import Synchronization

/// The demo object: `Echo`, `Increment` (+ `Counter` property and `CounterChanged` signal), `Greeting`.
enum DemoObject {
    static func path() throws -> ObjectPath { try ObjectPath("/org/navsession/Demo") }

    final class State: Sendable {
        let counter = Mutex<UInt32>(0)
        let greeting = Mutex("Hello")
    }

    static func interface() throws -> Interface {
        let state = State()
        let name = "org.navsession.Demo1"
        return try Interface(
            name,
            methods: [
                Interface.Method("Echo", inputs: [.init("text", .string)], outputs: [.init("text", .string)]) { call in
                    [call.arguments[0]]
                },
                Interface.Method("Increment", inputs: [.init("by", .uint32)], outputs: [.init("value", .uint32)]) { call in
                    let value = state.counter.withLock { counter -> UInt32 in
                        counter &+= call.arguments[0].uint32 ?? 0
                        return counter
                    }
                    let interface = try InterfaceName(name)
                    try await call.bus.propertiesChanged([try MemberName("Counter")], interface: interface, at: call.path)
                    try await call.bus.emit(
                        path: call.path, interface: interface, member: try MemberName("CounterChanged"),
                        arguments: [.uint32(value)])
                    return [.uint32(value)]
                },
            ],
            properties: [
                Interface.Property("Counter", .uint32, get: { _ in .uint32(state.counter.withLock { $0 }) }),
                Interface.Property(
                    "Greeting", .string,
                    get: { _ in .string(state.greeting.withLock { $0 }) },
                    set: { value, _ in state.greeting.withLock { $0 = value.string ?? "" } }),
            ],
            signals: [Interface.Signal("CounterChanged", arguments: [.init("value", .uint32)])])
    }
}
