import DBusKit
import Foundation
import Logging
import Synchronization
import NavigationCore
import NavigationRouting
import NavigationSession

extension SessionService {
    private typealias Build = @Sendable (MethodCall, Session, SessionWindow) throws -> [BatchCommand]

    /// A Window1 method that applies one batch (``Session/apply(window:batch:)``) to the window at the
    /// call's path and returns the version.
    private func command(
        _ name: String, _ inputs: [Interface.Argument], _ build: @escaping Build
    ) throws -> Interface.Method {
        try Interface.Method.synchronous(name, inputs: inputs, outputs: [.init("version", .uint64)]) { call, bus in
            let number = try Self.number(of: call.path)
            return try self.performSynchronously(on: bus, reply: Self.version) { session in
                try session.apply(window: number, batch: try build(call, session, try session.window(number)))
            }
        }
    }

    /// The reply of a change to one window: its new version.
    static func version(_ outcome: SessionOutcome) -> [Value] {
        [.uint64(UInt64(clamping: outcome.windowVersion ?? 0))]
    }

    /// A Window1 method that applies one renderer report (``Session/report(window:_:)``).
    private func report(
        _ name: String, _ inputs: [Interface.Argument], _ build: @escaping @Sendable (MethodCall) throws -> RendererReport
    ) throws -> Interface.Method {
        try Interface.Method.synchronous(name, inputs: inputs, outputs: [.init("version", .uint64)]) { call, bus in
            let number = try Self.number(of: call.path)
            let report = try ErrorMapping.mapped { try build(call) }
            return try self.performSynchronously(on: bus, reply: Self.version) { try $0.report(window: number, report) }
        }
    }

    /// A read-only Window1 method returning one string.
    private func reader(
        _ name: String, _ output: String, _ read: @escaping @Sendable (SessionWindow) throws -> String
    ) throws -> Interface.Method {
        try Interface.Method(name, outputs: [.init(output, .string)]) { call in
            let number = try Self.number(of: call.path)
            return [.string(try self.withSession { state in try read(try state.session.window(number)) })]
        }
    }

    /// A Window1 property read from the window's cached properties.
    private func property(
        _ name: String, _ type: SignatureType, emits: Interface.Property.EmitsChangedSignal = .true,
        _ read: @escaping @Sendable (WindowProperties) -> Value
    ) throws -> Interface.Property {
        try Interface.Property(name, type, emitsChangedSignal: emits) { access in
            let number = try Self.number(of: access.path)
            return read(try self.withSession { state in try state.properties(of: number) })
        }
    }

    /// The `a{ss}` options of Window1 `Apply` and `Check`.
    static let applyOptions = Interface.Argument("options", .dictionary(key: .string, value: .string))

    /// `org.navsession.Window1` (dbus/org.navsession.Window1.xml), shared by every window object.
    func windowInterface() throws -> Interface {
        let params = Interface.Argument("params", .dictionary(key: .string, value: .string))
        let model = Interface.Argument("model", .uint64)
        let manifest = self.manifest
        @Sendable func id(_ value: Value) throws -> ModelID { try CommandArguments.modelID(value.uint64 ?? 0) }
        @Sendable func one(_ command: NavigationCommand, from: ModelID? = nil) -> [BatchCommand] { [BatchCommand(command, from: from)] }
        @Sendable func screen(_ call: MethodCall, _ index: Int) throws -> ModelSpec {
            let name = call.arguments[index].string ?? ""
            guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
            // The window checks the screen against the manifest's declarations (ScreenCatalog).
            return .screen(name, params: call.arguments[index + 1].stringDictionary)
        }
        @Sendable func present(
            _ call: MethodCall, _ index: Int, _ session: Session, _ window: SessionWindow
        ) throws -> NavigationCommand {
            let kind = call.arguments[index].string ?? ""
            let name = call.arguments[index + 1].string ?? ""
            let values = call.arguments[index + 2].stringDictionary
            guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
            return .present(try session.presentation(kind: kind, screen: name, params: values, in: window.number))
        }
        return try Interface(
            "org.navsession.Window1",
            methods: [
                try command("StackAppend", [.init("screen", .string), params]) { call, _, _ in
                    one(.stackAppend(try screen(call, 0)))
                },
                try command("StackDropLast", [.init("count", .uint32)]) { call, _, _ in
                    one(.stackDropLast(Int(call.arguments[0].uint32 ?? 0)))
                },
                try command("StackDropToRoot", []) { _, _, _ in one(.stackDropToRoot) },
                try command("StackSetRoot", [.init("screen", .string), params, .init("clear", .boolean)]) { call, _, _ in
                    one(.stackSetRoot(try screen(call, 0), clear: call.arguments[2].bool ?? false))
                },
                try command("StackSetPath", [.init("screens", .array(.string))]) { call, _, _ in
                    one(.stackSetPath(call.arguments[0].stringArray.map { .spec(.screen($0)) }))
                },
                try command("StackReverse", []) { _, _, window in
                    let origin = window.graph.activeModelID
                    return try ReverseStack().commands(in: window.graph, from: origin).map { BatchCommand($0, from: origin) }
                },
                try command("Present", [.init("kind", .string), .init("screen", .string), params]) { call, session, window in
                    one(try present(call, 0, session, window))
                },
                try command(
                    "PresentAlert", [.init("title", .string), .init("message", .string), .init("actions", .array(.string))]
                ) { call, _, _ in
                    let content = try CommandArguments.dialog(
                        title: call.arguments[0].string ?? "", message: call.arguments[1].string ?? "",
                        actions: call.arguments[2].stringArray, kind: .alert, manifest: manifest)
                    return one(.present(.alert(content)))
                },
                try command(
                    "PresentConfirmationDialog",
                    [
                        .init("title", .string), .init("message", .string), .init("actions", .array(.string)),
                        .init("source_id", .string),
                    ]
                ) { call, _, _ in
                    let content = try CommandArguments.dialog(
                        title: call.arguments[0].string ?? "", message: call.arguments[1].string ?? "",
                        actions: call.arguments[2].stringArray, kind: .confirmationDialog, manifest: manifest)
                    let source = call.arguments[3].string ?? ""
                    return one(.present(.confirmationDialog(content, sourceID: source.isEmpty ? nil : source)))
                },
                try command("Dismiss", []) { _, _, _ in one(.dismiss) },
                try command("DismissJustFromPresented", []) { _, _, _ in one(.dismissJustFromPresented) },
                try command("Hide", []) { _, _, _ in one(.hide) },
                try command("TabsSelectItem", [.init("tab", .string)]) { call, _, _ in
                    one(.tabsSelectItem(call.arguments[0].string ?? ""))
                },
                try command("SwitchModel", [.init("screen", .string), params]) { call, _, _ in
                    one(.switchModel(try screen(call, 0)))
                },
                try command("StackAppendAt", [model, .init("screen", .string), params]) { call, _, _ in
                    one(.stackAppend(try screen(call, 1)), from: try id(call.arguments[0]))
                },
                try command("PresentAt", [model, .init("kind", .string), .init("screen", .string), params]) {
                    call, session, window in
                    one(try present(call, 1, session, window), from: try id(call.arguments[0]))
                },
                try command("DismissAt", [model]) { call, _, _ in one(.dismiss, from: try id(call.arguments[0])) },
                try command("DismissJustFromPresentedAt", [model]) { call, _, _ in
                    one(.dismissJustFromPresented, from: try id(call.arguments[0]))
                },
                try command("HideAt", [model]) { call, _, _ in one(.hide, from: try id(call.arguments[0])) },
                try Interface.Method.synchronous(
                    "ExecuteAt", inputs: [model, .init("command_json", .string)], outputs: [.init("version", .uint64)]
                ) { call, bus in
                    let number = try Self.number(of: call.path)
                    let from = try id(call.arguments[0])
                    let json = call.arguments[1].string ?? ""
                    return try self.performSynchronously(on: bus, reply: Self.version) {
                        try $0.execute(window: number, commandJSON: json, from: from)
                    }
                },
                try Interface.Method.synchronous(
                    "Apply", inputs: [.init("batch_json", .string), Self.applyOptions],
                    outputs: [.init("version", .uint64), .init("started", .array(.uint64))]
                ) { call, bus in
                    let number = try Self.number(of: call.path)
                    let json = call.arguments[0].string ?? ""
                    let expected = try ApplyOptions(call.arguments[1].stringDictionary).expectedVersion
                    return try self.performSynchronously(on: bus, reply: { outcome in
                        let started = outcome.changes(of: number).first?.started ?? []
                        return [
                            .uint64(UInt64(clamping: outcome.windowVersion ?? 0)),
                            .modelIDs(started),
                        ]
                    }) { try $0.apply(window: number, batchJSON: json, expectedVersion: expected) }
                },
                try Interface.Method(
                    "Check", inputs: [.init("batch_json", .string), Self.applyOptions],
                    outputs: [.init("version", .uint64), .init("started", .array(.uint64))]
                ) { call in
                    let number = try Self.number(of: call.path)
                    let json = call.arguments[0].string ?? ""
                    let expected = try ApplyOptions(call.arguments[1].stringDictionary).expectedVersion
                    let event = try self.withSession { state in
                        try state.session.dryRun(window: number, batchJSON: json, expectedVersion: expected)
                    }
                    return [
                        .uint64(UInt64(clamping: event.version)),
                        .modelIDs(event.started),
                    ]
                },
                try Interface.Method.synchronous(
                    "SetState", inputs: [.init("state_json", .string)], outputs: [.init("version", .uint64)]
                ) { call, bus in
                    let number = try Self.number(of: call.path)
                    let json = call.arguments[0].string ?? ""
                    return try self.performSynchronously(on: bus, reply: Self.version) {
                        try $0.setState(window: number, stateJSON: json)
                    }
                },
                try Interface.Method.synchronous(
                    "SendMessage",
                    inputs: [model, .init("name", .string), .init("payload", .dictionary(key: .string, value: .string))]
                ) { call, bus in
                    let number = try Self.number(of: call.path)
                    let target = try id(call.arguments[0])
                    let message = NavigationMessage(
                        call.arguments[1].string ?? "", payload: CommandArguments.payload(call.arguments[2].stringDictionary))
                    return try self.performSynchronously(on: bus, reply: { _ in [] }) { session in
                        let window = try session.window(number)
                        let model = target.rawValue == 0 ? window.graph.activeModelID : target
                        return try session.sendMessage(window: number, to: model, message)
                    }
                },
                try report("ReportPopped", [.init("stack", .uint64), .init("index", .uint32)]) { call in
                    .poppedTo(stack: try id(call.arguments[0]), index: Int(call.arguments[1].uint32 ?? 0))
                },
                try report("ReportDismissed", [model]) { call in .dismissedInteractively(try id(call.arguments[0])) },
                try report("ReportTabSelected", [.init("tabs", .uint64), .init("tab", .string)]) { call in
                    .selectedTab(tabs: try id(call.arguments[0]), tab: call.arguments[1].string ?? "")
                },
                try report("ReportActionChosen", [model, .init("action", .string)]) { call in
                    .alertActionChosen(alert: try id(call.arguments[0]), action: call.arguments[1].string ?? "")
                },
                try Interface.Method.synchronous("ReportClosed") { call, bus in
                    let number = try Self.number(of: call.path)
                    return try self.performSynchronously(on: bus, reply: { _ in [] }) { try $0.dismissWindow(number) }
                },
                // The snapshot is taken in call order; encoding it (the expensive part, ≈ 100 ns per byte) runs
                // off the bus thread, so no other client's call waits for a large read.
                try Interface.Method.completingOffBusThread("GetState", outputs: [.init("state_json", .string)]) { call in
                    let number = try Self.number(of: call.path)
                    let snapshot = try self.withSession { state in try state.session.window(number).graph.snapshot() }
                    return {
                        let encoder = JSONEncoder()
                        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                        let bytes = try snapshot.directJSON { Array(try encoder.encode($0)) }
                        return [.string(String(decoding: bytes, as: UTF8.self))]
                    }
                },
                try reader("GetTree", "tree") { window in window.graph.debugTree() },
                try reader("GetRoutes", "routes_json") { window in Route.json(window.graph.routes) },
            ],
            properties: [
                try property("Scene", .string, emits: .const) { .string($0.scene) },
                try property("Title", .string) { .string($0.title) },
                try property("Version", .uint64) { .uint64($0.version) },
                try property("ActiveScreen", .string) { .string($0.activeScreen) },
                try property("ActiveModel", .uint64) { .uint64($0.activeModel) },
                // Grows with the window: announced as invalidated, computed only when read.
                try Interface.Property("Routes", .string, emitsChangedSignal: .invalidates) { access in
                    let number = try Self.number(of: access.path)
                    return .string(try self.withSession { state in Route.json(try state.session.window(number).graph.routes) })
                },
                try property("SelectedTab", .string) { .string($0.selectedTab) },
                try property("CanGoBack", .boolean) { .boolean($0.abilities.canGoBack) },
                try property("CanPop", .boolean) { .boolean($0.abilities.canPop) },
                try property("CanDismiss", .boolean) { .boolean($0.abilities.canDismiss) },
                try property("PendingDeepLink", .string) { .string($0.pendingDeepLink) },
            ],
            signals: [
                try Interface.Signal(
                    "Changed",
                    arguments: [
                        .init("version", .uint64), .init("previous_version", .uint64), .init("cause_json", .string),
                        .init("animated", .boolean), .init("started", .array(.uint64)), .init("finished", .array(.uint64)),
                        .init("steps_json", .string),
                    ]),
                try Interface.Signal(
                    "Message",
                    arguments: [
                        .init("model", .uint64), .init("name", .string),
                        .init("payload", .dictionary(key: .string, value: .string)),
                    ]),
                try Interface.Signal("OpenExternalURL", arguments: [.init("url", .string)]),
                try Interface.Signal(
                    "Effect", arguments: [.init("name", .string), .init("args", .dictionary(key: .string, value: .string))]),
            ])
    }
}
