import DBusKit
import Logging
import Synchronization
import NavigationSession

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
                    let scene = self.manifest.defaultSceneName
                    try await self.perform(on: call.bus) { session in
                        session.windows.contains { $0.scene == scene }
                            ? SessionOutcome(window: nil, windowVersion: nil, sessionVersion: session.version, events: [])
                            : try session.openWindow(scene: scene)
                    }
                    return []
                },
                Interface.Method("Open", inputs: [.init("uris", .array(.string)), platformData]) { call in
                    for uri in call.arguments[0].stringArray {
                        try await self.perform(on: call.bus) { try $0.openURL(uri) }
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
                        let scene = first ?? self.manifest.defaultSceneName
                        try await self.perform(on: call.bus) { try $0.openWindow(scene: scene) }
                    case "quit":
                        self.requestQuit()
                    case let other:
                        throw ErrorMapping.unsupportedAction(other)
                    }
                    return []
                },
            ])
    }
}
