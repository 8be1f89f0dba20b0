import DBusKit
import Logging
import Synchronization
import NavigationCore
import NavigationSession

extension SessionService {
    /// `org.navsession.Session1` (dbus/org.navsession.Session1.xml): each method is one ``Session`` call.
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
                    let outcome = try await self.perform(on: call.bus) { try $0.openWindow(scene: scene, params: params) }
                    return [.objectPath(try self.path(of: try Self.window(of: outcome)))]
                },
                try Interface.Method.synchronous("DismissWindow", inputs: [.init("window", .objectPath)]) { call, bus in
                    let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                    return try self.performSynchronously(on: bus, reply: { _ in [] }) { try $0.dismissWindow(number) }
                },
                // A deep link into an open window changes it without suspending, like a Window1 command.
                try Interface.Method.synchronous(
                    "OpenURL", inputs: [.init("url", .string)], outputs: [.init("window", .objectPath)]
                ) { call, bus in
                    let url = call.arguments[0].string ?? ""
                    return try self.performSynchronously(on: bus, reply: { outcome in
                        [.objectPath(try self.path(of: try Self.window(of: outcome)))]
                    }) { try $0.openURL(url) }
                },
                Interface.Method("ListWindows", outputs: [.init("windows", .array(.objectPath))]) { _ in
                    [try self.windowList()]
                },
                try Interface.Method.synchronous(
                    "Apply", inputs: [.init("window", .objectPath), .init("batch_json", .string)],
                    outputs: [.init("version", .uint64)]
                ) { call, bus in
                    let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                    let batch = call.arguments[1].string ?? ""
                    return try self.performSynchronously(on: bus, reply: Self.version) {
                        try $0.apply(window: number, batchJSON: batch)
                    }
                },
                Interface.Method("SetCloseOnExit", inputs: [.init("window", .objectPath), .init("enabled", .boolean)]) { call in
                    let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                    let enabled = call.arguments[1].bool ?? false
                    guard let sender = call.sender else { throw BusError(.invalidArgs, "the call has no sender") }
                    try self.withSession { state in
                        try state.session.setCloseOnExit(
                            window: number, owner: enabled ? sender.rawValue : nil, caller: sender.rawValue)
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
                    let capabilities = RendererCapabilities(
                        multiDismiss: call.arguments[2].bool == true, pushesInOne: call.arguments[3].bool == true)
                    return [
                        .string(
                            try ErrorMapping.mapped {
                                try Session.plan(
                                    fromJSON: call.arguments[0].string ?? "", toJSON: call.arguments[1].string ?? "",
                                    capabilities: capabilities, limits: self.limits)
                            })
                    ]
                },
            ],
            properties: [
                Interface.Property("Windows", .array(.objectPath), get: { _ in try self.windowList() }),
                Interface.Property(
                    "Scenes", .array(.string), emitsChangedSignal: .const, get: { _ in .strings(self.manifest.sceneNames) }),
                Interface.Property("Version", .uint64, get: { _ in .uint64(self.state.withLock { $0.session.version }) }),
                Interface.Property(
                    "ApplicationId", .string, emitsChangedSignal: .const, get: { _ in .string(self.applicationID) }),
            ])
    }

    /// The open windows' paths as an `ao`.
    func windowList() throws -> Value {
        .array(.objectPath, try windowNumbers().map { .objectPath(try self.path(of: $0)) })
    }

    /// The window an outcome returned (every window-returning operation sets it).
    static func window(of outcome: SessionOutcome) throws(BusError) -> WindowNumber {
        guard let number = outcome.window else { throw BusError(.failed, "the operation returned no window") }
        return number
    }
}
