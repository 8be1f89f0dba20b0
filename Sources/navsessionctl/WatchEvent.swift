import DBusKit
import FoundationEssentials
import NavigationCore

/// One line of `watch`: a Window1 or ObjectManager signal, or a detected gap in a window's versions.
enum WatchEvent: Sendable, Equatable {
    /// Window1.Changed.
    case changed(window: String, version: UInt64, previous: UInt64, cause: String, animated: Bool,
                 started: [UInt64], finished: [UInt64], steps: String)
    /// Window1.Message.
    case message(window: String, model: UInt64, name: String, payload: Value)
    /// Window1.OpenExternalURL.
    case openExternalURL(window: String, url: String)
    /// Window1.Effect.
    case effect(window: String, name: String, arguments: Value)
    /// ObjectManager.InterfacesAdded for a window; `version` from its Window1 properties when present.
    case windowAdded(window: String, version: UInt64?)
    /// ObjectManager.InterfacesRemoved for a window.
    case windowRemoved(window: String)
    /// Window1.Announcement: what a screen reader hears after change `version`, and the model taking focus.
    case announcement(window: String, version: UInt64, text: String, focus: UInt64)
    /// Window1.Settled: a renderer finished animating `version`.
    case settled(window: String, version: UInt64)
    /// A Changed whose previous version is past the last version seen: changes were missed.
    case missed(window: String, lastSeen: UInt64, previous: UInt64)

    /// Decodes a signal; `nil` for signals `watch` does not report (e.g. PropertiesChanged) or malformed ones.
    init?(_ signal: Signal) {
        let window = signal.path.rawValue
        let arguments = signal.arguments
        switch (signal.interface.rawValue, signal.member.rawValue) {
        case (SessionNames.window, "Changed"):
            guard arguments.count == 7, let version = arguments[0].uint64, let previous = arguments[1].uint64,
                  let cause = arguments[2].string, let animated = arguments[3].bool,
                  let started = arguments[4].arrayElements, let finished = arguments[5].arrayElements,
                  let steps = arguments[6].string
            else { return nil }
            self = .changed(window: window, version: version, previous: previous, cause: cause, animated: animated,
                            started: started.compactMap(\.uint64), finished: finished.compactMap(\.uint64),
                            steps: steps)
        case (SessionNames.window, "Message"):
            guard arguments.count == 3, let model = arguments[0].uint64, let name = arguments[1].string else {
                return nil
            }
            self = .message(window: window, model: model, name: name, payload: arguments[2])
        case (SessionNames.window, "OpenExternalURL"):
            guard let url = arguments.first?.string else { return nil }
            self = .openExternalURL(window: window, url: url)
        case (SessionNames.window, "Effect"):
            guard arguments.count == 2, let name = arguments[0].string else { return nil }
            self = .effect(window: window, name: name, arguments: arguments[1])
        case (SessionNames.window, "Announcement"):
            guard arguments.count == 3, let version = arguments[0].uint64, let text = arguments[1].string,
                  let focus = arguments[2].uint64
            else { return nil }
            self = .announcement(window: window, version: version, text: text, focus: focus)
        case (SessionNames.window, "Settled"):
            guard let version = arguments.first?.uint64 else { return nil }
            self = .settled(window: window, version: version)
        case (InterfaceName.objectManager.rawValue, "InterfacesAdded"):
            guard arguments.count == 2, let path = arguments[0].objectPath,
                  let interfaces = arguments[1].dictionaryEntries,
                  let windowInterface = interfaces.first(where: { $0.key.string == SessionNames.window })
            else { return nil }
            let version = (windowInterface.value.dictionaryEntries ?? [])
                .first { $0.key.string == "Version" }.flatMap { $0.value.variantValue ?? $0.value }?.uint64
            self = .windowAdded(window: path.rawValue, version: version)
        case (InterfaceName.objectManager.rawValue, "InterfacesRemoved"):
            guard arguments.count == 2, let path = arguments[0].objectPath,
                  arguments[1].arrayElements?.contains(.string(SessionNames.window)) == true
            else { return nil }
            self = .windowRemoved(window: path.rawValue)
        default:
            return nil
        }
    }

    /// The window path the event is about.
    var window: String {
        switch self {
        case .changed(let window, _, _, _, _, _, _, _), .message(let window, _, _, _),
             .openExternalURL(let window, _), .effect(let window, _, _), .windowAdded(let window, _),
             .windowRemoved(let window), .missed(let window, _, _), .settled(let window, _),
             .announcement(let window, _, _, _):
            window
        }
    }

    /// The text line: `<window number> <Event> key=value…`.
    var text: String {
        let number = SessionNames.shortName(of: window)
        switch self {
        case .changed(_, let version, let previous, let cause, let animated, let started, let finished, let steps):
            let stepsPart = steps == "[]" || steps.isEmpty ? "" : " steps=\(steps)"
            return "\(number) Changed version=\(version) previous=\(previous) animated=\(animated) "
                + "started=\(Self.list(started)) finished=\(Self.list(finished)) cause=\(cause)\(stepsPart)"
        case .message(_, let model, let name, let payload):
            return "\(number) Message model=\(model) name=\(name) payload=\(ValueText.render(payload))"
        case .openExternalURL(_, let url):
            return "\(number) OpenExternalURL \(url)"
        case .effect(_, let name, let arguments):
            return "\(number) Effect name=\(name) args=\(ValueText.render(arguments))"
        case .windowAdded(_, let version):
            return "\(number) WindowAdded" + (version.map { " version=\($0)" } ?? "")
        case .windowRemoved:
            return "\(number) WindowRemoved"
        case .settled(_, let version):
            return "\(number) Settled version=\(version)"
        case .announcement(_, let version, let text, let focus):
            return "\(number) Announcement version=\(version) focus=\(focus) \(JSONString.literal(text))"
        case .missed(_, let lastSeen, let previous):
            return "\(number) Missed \(previous - lastSeen) change(s): last seen version=\(lastSeen), "
                + "next change starts from previous=\(previous)"
        }
    }

    /// The JSON line: `{"event":"Changed","window":"1","path":"…",…}`.
    var json: String {
        var fields: [(String, String)] = []
        switch self {
        case .changed(_, let version, let previous, let cause, let animated, let started, let finished, let steps):
            fields = [("event", "\"Changed\""), ("version", String(version)), ("previousVersion", String(previous)),
                      ("animated", String(animated)), ("started", Self.list(started)),
                      ("finished", Self.list(finished)), ("cause", Self.embedded(cause)),
                      ("steps", Self.embedded(steps))]
        case .message(_, let model, let name, let payload):
            fields = [("event", "\"Message\""), ("model", String(model)), ("name", JSONString.literal(name)),
                      ("payload", ValueText.render(payload))]
        case .openExternalURL(_, let url):
            fields = [("event", "\"OpenExternalURL\""), ("url", JSONString.literal(url))]
        case .effect(_, let name, let arguments):
            fields = [("event", "\"Effect\""), ("name", JSONString.literal(name)), ("args", ValueText.render(arguments))]
        case .windowAdded(_, let version):
            fields = [("event", "\"WindowAdded\"")] + (version.map { [("version", String($0))] } ?? [])
        case .windowRemoved:
            fields = [("event", "\"WindowRemoved\"")]
        case .settled(_, let version):
            fields = [("event", "\"Settled\""), ("version", String(version))]
        case .announcement(_, let version, let text, let focus):
            fields = [("event", "\"Announcement\""), ("version", String(version)), ("focusModel", String(focus)),
                      ("text", JSONString.literal(text))]
        case .missed(_, let lastSeen, let previous):
            fields = [("event", "\"Missed\""), ("lastSeenVersion", String(lastSeen)),
                      ("previousVersion", String(previous))]
        }
        let windowFields = [("window", JSONString.literal(SessionNames.shortName(of: window))),
                            ("path", JSONString.literal(window))]
        let all = [fields[0]] + windowFields + fields.dropFirst()
        return "{" + all.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func list(_ ids: [UInt64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// JSON from the daemon embedded as is when it parses, else as a string.
    private static func embedded(_ text: String) -> String {
        JSONValue(parsing: text) != nil ? text : JSONString.literal(text)
    }
}
