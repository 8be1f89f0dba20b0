import DBusKit
import Foundation
import NavigationCore
import NavigationSession

/// One command a client sends: its D-Bus call, and the batch the daemon builds from it (for the replay).
///
/// The batch mirrors `SessionService+Window1.swift` (the Window1 methods) and `Session1.Apply` exactly for
/// the commands used here, none of which `Session` expands further (no state-named `switchModel` except
/// in setup, no dialog actions with commands, no effects), so applying it to a `NavigationWindow` is what
/// the daemon's `Session.apply(window:batch:)` does to the graph.
enum LoadCommand: Codable, Hashable, Sendable {
    case stackAppend(screen: String, params: [String: String])
    case stackDropLast(count: UInt32)
    case present(kind: String, screen: String, params: [String: String])
    case presentAlert(title: String, message: String, actions: [String])
    case dismiss
    case tabsSelectItem(tab: String)
    /// `SwitchModel` with a state name (setup of the main window: logging in).
    case switchModel(screen: String)
    /// `Session1.Apply(window, batch_json)`.
    case apply(batchJSON: String)

    static let session = "/org/navsession/Session1"
    static let sessionInterface = "org.navsession.Session1"
    static let windowInterface = "org.navsession.Window1"

    /// Short name for reports.
    var name: String {
        switch self {
        case .stackAppend: "StackAppend"
        case .stackDropLast: "StackDropLast"
        case .present: "Present"
        case .presentAlert: "PresentAlert"
        case .dismiss: "Dismiss"
        case .tabsSelectItem: "TabsSelectItem"
        case .switchModel: "SwitchModel"
        case .apply: "Apply"
        }
    }

    /// The call: object path, interface, member and arguments.
    func call(window: String) throws -> (path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [Value]) {
        let windowPath = try ObjectPath(window)
        func method(_ member: String, _ arguments: [Value]) throws
            -> (path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [Value])
        {
            (windowPath, try InterfaceName(Self.windowInterface), try MemberName(member), arguments)
        }
        switch self {
        case .stackAppend(let screen, let params):
            return try method("StackAppend", [.string(screen), Self.dictionary(params)])
        case .stackDropLast(let count):
            return try method("StackDropLast", [.uint32(count)])
        case .present(let kind, let screen, let params):
            return try method("Present", [.string(kind), .string(screen), Self.dictionary(params)])
        case .presentAlert(let title, let message, let actions):
            return try method("PresentAlert", [.string(title), .string(message), .strings(actions)])
        case .dismiss:
            return try method("Dismiss", [])
        case .tabsSelectItem(let tab):
            return try method("TabsSelectItem", [.string(tab)])
        case .switchModel(let screen):
            return try method("SwitchModel", [.string(screen), Self.dictionary([:])])
        case .apply(let json):
            return (
                try ObjectPath(Self.session), try InterfaceName(Self.sessionInterface), try MemberName("Apply"),
                [.objectPath(windowPath), .string(json)]
            )
        }
    }

    static func dictionary(_ pairs: [String: String]) -> Value {
        .dictionary(
            key: .string, value: .string,
            pairs.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .string($0.value)) })
    }

    /// The batch the daemon applies for this command in a window of `scene`.
    func batch(scene: String, context: ReplayContext) throws -> [BatchCommand] {
        switch self {
        case .stackAppend(let screen, let params):
            return [BatchCommand(.stackAppend(.screen(screen, params: params)))]
        case .stackDropLast(let count):
            return [BatchCommand(.stackDropLast(Int(count)))]
        case .present(let kind, let screen, let params):
            return [BatchCommand(.present(try context.presentation(kind: kind, screen: screen, params: params, scene: scene)))]
        case .presentAlert(let title, let message, let actions):
            let content = DialogContent(
                title: title, message: message.isEmpty ? nil : message, actions: try Self.actions(actions))
            return [BatchCommand(.present(.alert(content)))]
        case .dismiss:
            return [BatchCommand(.dismiss)]
        case .tabsSelectItem(let tab):
            return [BatchCommand(.tabsSelectItem(tab))]
        case .switchModel(let screen):
            let state = context.manifest.scene(scene)?.state(screen) ?? .screen(screen)
            return [BatchCommand(.switchModel(state))]
        case .apply(let json):
            return try JSONDecoder().decode([BatchCommand].self, from: Data(json.utf8))
        }
    }

    /// Dialog actions from `id:title[:role]`, as the service parses them.
    static func actions(_ texts: [String]) throws -> [DialogAction] {
        try texts.map { text in
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, !parts[0].isEmpty else { throw LoadError("bad action '\(text)'") }
            var role: ActionRole?
            if parts.count == 3 {
                guard let parsed = ActionRole(rawValue: parts[2]) else { throw LoadError("bad role in '\(text)'") }
                role = parsed
            }
            return DialogAction(id: parts[0], title: parts[1], role: role)
        }
    }
}
