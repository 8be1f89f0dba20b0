import DBusKit

extension SessionService {
    /// `org.freedesktop.Application` (the freedesktop Desktop Entry spec's D-Bus activation interface).
    ///
    /// - `Activate(a{sv})`: a window of the default scene exists → no-op (raise is the renderer's job);
    ///   otherwise opens one.
    /// - `Open(as uris, a{sv})`: each URI as `Session1.OpenURL`, in order; the first failure is the reply.
    /// - `ActivateAction(s, av, a{sv})`: `new-window` (optional scene name as the first parameter) opens a
    ///   window; `quit` shuts the daemon down cleanly; anything else is `NotSupported`.
    func applicationInterface() throws -> Interface {
        let platformData = Interface.Argument("platform_data", .dictionary(key: .string, value: .variant))
        return try Interface(
            "org.freedesktop.Application",
            methods: [
                Interface.Method("Activate", inputs: [platformData]) { call in
                    let scene = self.defaultScene
                    let events = try self.withCore { core in
                        core.order.contains { core.entries[$0]?.scene == scene }
                            ? [] : try core.openWindow(scene: scene, params: [:]).1
                    }
                    await self.announce(events, on: call.bus)
                    return []
                },
                Interface.Method("Open", inputs: [.init("uris", .array(.string)), platformData]) { call in
                    for uri in call.arguments[0].stringArray {
                        let events = try self.withCore { core in try core.openURL(uri).1 }
                        await self.announce(events, on: call.bus)
                    }
                    return []
                },
                Interface.Method(
                    "ActivateAction",
                    inputs: [.init("action_name", .string), .init("parameter", .array(.variant)), platformData]
                ) { call in
                    switch call.arguments[0].string ?? "" {
                    case "new-window":
                        let first = call.arguments[1].arrayElements?.first?.variantValue?.string
                        let scene = first ?? self.defaultScene
                        let events = try self.withCore { core in try core.openWindow(scene: scene, params: [:]).1 }
                        await self.announce(events, on: call.bus)
                    case "quit":
                        self.requestQuit()
                    case let other:
                        throw ErrorMapping.busError(for: ServiceError.unsupportedAction(other))
                    }
                    return []
                },
            ])
    }
}
