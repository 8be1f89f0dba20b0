import DBusKit
import Foundation
import NavigationCore
import NavigationRouting
import Synchronization

extension SessionService {
    /// `org.navsession.Session1` (dbus/org.navsession.Session1.xml).
    func sessionInterface() throws -> Interface {
        try Interface(
            "org.navsession.Session1",
            methods: [
                Interface.Method(
                    "OpenWindow", inputs: [.init("scene", .string), .init("params", .dictionary(key: .string, value: .string))],
                    outputs: [.init("window", .objectPath)]
                ) { call in
                    let scene = call.arguments[0].string ?? ""
                    let params = call.arguments[1].stringDictionary
                    let (number, events) = try self.withCore { core in try core.openWindow(scene: scene, params: params) }
                    await self.announce(events, on: call.bus)
                    return [.objectPath(try Self.path(of: number))]
                },
                Interface.Method("DismissWindow", inputs: [.init("window", .objectPath)]) { call in
                    let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                    let events = try self.withCore { core in try core.dismissWindow(number) }
                    await self.announce(events, on: call.bus)
                    return []
                },
                Interface.Method("OpenURL", inputs: [.init("url", .string)], outputs: [.init("window", .objectPath)]) { call in
                    let url = call.arguments[0].string ?? ""
                    let (number, events) = try self.withCore { core in try core.openURL(url) }
                    await self.announce(events, on: call.bus)
                    return [.objectPath(try Self.path(of: number))]
                },
                Interface.Method("ListWindows", outputs: [.init("windows", .array(.objectPath))]) { _ in
                    [try self.windowList()]
                },
                Interface.Method(
                    "Apply", inputs: [.init("window", .objectPath), .init("batch_json", .string)],
                    outputs: [.init("version", .uint64)]
                ) { call in
                    let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                    let batch = try Self.decodeBatch(call.arguments[1].string ?? "")
                    let (version, events) = try self.withCore { core in try core.apply(batch, to: number) }
                    await self.announce(events, on: call.bus)
                    return [.uint64(version)]
                },
                Interface.Method("SetCloseOnExit", inputs: [.init("window", .objectPath), .init("enabled", .boolean)]) { call in
                    let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                    let enabled = call.arguments[1].bool ?? false
                    guard let sender = call.sender else { throw BusError(.invalidArgs, "the call has no sender") }
                    try self.withCore { core in
                        try core.entry(number).closeOnExitOwner = enabled ? sender.rawValue : nil
                    }
                    if enabled { self.watch(sender, on: call.bus) }
                    return []
                },
                Interface.Method(
                    "Plan",
                    inputs: [
                        .init("from_routes", .string), .init("to_routes", .string), .init("multi_dismiss", .boolean),
                        .init("pushes_in_one", .boolean),
                    ],
                    outputs: [.init("states", .string)]
                ) { call in
                    try ErrorMapping.mapped {
                        let from = try Route.list(fromJSON: call.arguments[0].string ?? "")
                        let to = try Route.list(fromJSON: call.arguments[1].string ?? "")
                        var capabilities: StepPlanner.Capabilities = []
                        if call.arguments[2].bool == true { capabilities.insert(.multiDismiss) }
                        if call.arguments[3].bool == true { capabilities.insert(.pushesInOne) }
                        let states = StepPlanner.steps(from: from, to: to, capabilities: capabilities)
                        return [.string(Route.json(states: states))]
                    }
                },
            ],
            properties: [
                Interface.Property("Windows", .array(.objectPath), get: { _ in try self.windowList() }),
                Interface.Property(
                    "Scenes", .array(.string), emitsChangedSignal: .const, get: { _ in .strings(self.sceneNames) }),
                Interface.Property("Version", .uint64, get: { _ in .uint64(self.core.withLock { $0.version }) }),
                Interface.Property(
                    "ApplicationId", .string, emitsChangedSignal: .const, get: { _ in .string(self.applicationID) }),
            ])
    }

    /// The open windows' paths as an `ao`.
    func windowList() throws -> Value {
        .array(.objectPath, try windowNumbers().map { .objectPath(try Self.path(of: $0)) })
    }

    /// Decodes `Apply`'s batch: a JSON array of commands (Docs/state-schema.md).
    static func decodeBatch(_ text: String) throws(ServiceError) -> [BatchCommand] {
        do {
            return try JSONDecoder().decode([BatchCommand].self, from: Data(text.utf8))
        } catch {
            throw .invalidBatch(describe(error))
        }
    }

    /// Decodes one command (`ExecuteAt`).
    static func decodeCommand(_ text: String) throws(ServiceError) -> NavigationCommand {
        do {
            return try JSONDecoder().decode(NavigationCommand.self, from: Data(text.utf8))
        } catch {
            throw .invalidBatch(describe(error))
        }
    }

    /// A one-line description of a JSON decoding failure, with the key path.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "malformed JSON: \(context.debugDescription)" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "\(path(context.codingPath)): missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)): missing \(type)"
        @unknown default: return String(describing: error)
        }
    }
}
