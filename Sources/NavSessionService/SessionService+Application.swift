import DBusKit
import NavSessionInterface
import Logging
import Synchronization
import NavigationRouting
import NavigationSession

extension SessionService {
    /// `org.freedesktop.Application` (the freedesktop Desktop Entry spec's D-Bus activation interface).
    ///
    /// - `Activate(a{sv})`: opens a window of the default scene unless one exists.
    /// - `Open(as uris, a{sv})`: each URI as `Session1.OpenURL`, in order; the first failure is the reply.
    ///   Only the application's own deep-link schemes: the desktop asked *this* application to open them,
    ///   so a foreign URI (`file:///etc/hostname`) is `InvalidArgs` and nothing is opened.
    /// - `ActivateAction(s, av, a{sv})`: `new-window` (no parameter, or one string: a scene name) opens a
    ///   window; `reopen-window` (no parameter: the most recently closed window, or one string: an id of
    ///   `Session1.ListClosedWindows`) reopens a recently closed window; `quit` (no parameter) shuts the
    ///   daemon down cleanly; anything else is `NotSupported`.
    ///
    /// Each activated window gets `Effect("activate", {activation-token, desktop-startup-id})` so its
    /// renderer raises it with the platform data (the daemon itself has nothing to raise).
    func applicationInterface() throws -> Interface {
        let platformData = Interface.Argument("platform_data", .dictionary(key: .string, value: .variant))
        let rows = [
            MethodRow("Activate", inputs: [platformData], outputs: [], .custom { call, bus in
                let scene = self.manifest.defaultSceneName
                let outcome = try self.perform(on: bus) { session in
                    if let existing = session.windows.first(where: { $0.scene == scene }) {
                        return session.outcome(window: existing.number, events: [])
                    }
                    return try session.openWindow(scene: scene, client: call.client)
                }
                if let window = outcome.window {
                    self.announceActivation(of: window, platformData: call.arguments[0], on: bus)
                }
                return []
            }),
            MethodRow("Open", inputs: [.init("uris", .array(.string)), platformData], outputs: [], .custom { call, bus in
                let uris = call.arguments[0].stringArray
                let schemes = self.manifest.router?.schemes ?? []
                for uri in uris {
                    let scheme = uri.prefix { $0 != ":" }.lowercased()
                    guard uri.contains(":"), schemes.contains(scheme) else {
                        let accepted = schemes.isEmpty ? "no URIs (it declares no deep links)" : schemes.map { "\($0):" }.joined(separator: ", ")
                        throw BusError(.invalidArgs, "this application opens only \(accepted); '\(uri.prefix(200))' is not one (nothing was opened)")
                    }
                }
                for uri in uris {
                    let outcome = try self.perform(on: bus) { try $0.openURL(uri, client: call.client) }
                    if let window = outcome.window {
                        self.announceActivation(of: window, platformData: call.arguments[1], on: bus)
                    }
                }
                return []
            }),
            MethodRow(
                "ActivateAction", inputs: [.init("action_name", .string), .init("parameter", .array(.variant)), platformData],
                outputs: [],
                .custom { call, bus in
                    let parameters = call.arguments[1].arrayElements ?? []
                    switch call.arguments[0].string ?? "" {
                    case "new-window":
                        guard parameters.count <= 1 else {
                            throw BusError(.invalidArgs, "new-window takes at most one parameter (a scene name), not \(parameters.count)")
                        }
                        var scene = self.manifest.defaultSceneName
                        if let parameter = parameters.first {
                            guard let name = (parameter.variantValue ?? parameter).string else {
                                throw BusError(.invalidArgs, "new-window's parameter is a scene name (a string)")
                            }
                            scene = name
                        }
                        let outcome = try self.perform(on: bus) { try $0.openWindow(scene: scene, client: call.client) }
                        if let window = outcome.window {
                            self.announceActivation(of: window, platformData: call.arguments[2], on: bus)
                        }
                    case "reopen-window":
                        guard parameters.count <= 1 else {
                            throw BusError(.invalidArgs, "reopen-window takes at most one parameter (a closed window's id), not \(parameters.count)")
                        }
                        var id: String?
                        if let parameter = parameters.first {
                            guard let text = (parameter.variantValue ?? parameter).string else {
                                throw BusError(.invalidArgs, "reopen-window's parameter is a closed window's id (a string)")
                            }
                            id = text
                        }
                        let outcome = try self.perform(on: bus) { try $0.reopenWindow(id, client: call.client) }
                        if let window = outcome.window {
                            self.announceActivation(of: window, platformData: call.arguments[2], on: bus)
                        }
                    case "quit":
                        guard parameters.isEmpty else { throw BusError(.invalidArgs, "quit takes no parameter") }
                        self.requestQuit()
                    case let other:
                        throw ErrorMapping.unsupportedAction(other)
                    }
                    return []
                }),
        ]
        return try Interface(NavSessionInterface.Application.name, methods: try rows.map(method))
    }
}
