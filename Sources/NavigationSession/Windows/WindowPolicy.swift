import NavigationCore

/// Who may change a window (Session1 `SetWindowPolicy`, a scene's `policy` in the manifest; Docs/window-policy.md).
///
/// JSON: `{"change":["host","app:org.example.Remote",":1.42"],"manage":["host"]}`. Everyone may read a window (its
/// methods that read answer anyone, and its signals are broadcast on the bus); only a client a principal of
/// ``change`` names may change it — by any way in: a method, a batch, a renderer report, a deep link, an undo, a
/// move from or into it, its close, a scheduled batch at its deadline (with its author's authority), a guard
/// provider's redirect. ``manage`` names who may replace or remove the policy.
///
/// Principals:
/// - `"*"`: any client.
/// - `"host"`: a client that is not in a sandbox (no Flatpak app id).
/// - `"app:ID"`: a client whose Flatpak app id is `ID` (read from `/proc/PID/root/.flatpak-info`, as
///   xdg-desktop-portal reads it).
/// - `":1.42"`: the process of that connection (any of its connections) while it is on the bus; unique names are
///   never reused, so once it left, the entry names no one.
/// - `"self"` (``SetWindowPolicy`` only): the caller, written as its unique name.
public struct WindowPolicy: Hashable, Sendable {
    /// Who may change the window; empty: no client (a kiosk window).
    public var change: [String]
    /// Who may set or remove the policy (default `["host"]`); never empty.
    public var manage: [String]

    /// Who manages a policy that names no one: clients outside a sandbox.
    public static let defaultManage = ["host"]
    /// At most this many principals in each list.
    public static let maxPrincipals = 32

    /// Creates a policy.
    public init(change: [String], manage: [String] = WindowPolicy.defaultManage) {
        self.change = change
        self.manage = manage
    }

    /// Parses `policy_json`; `""`, `"{}"` or `"null"`: `nil` (no policy: anyone may change the window). `caller`
    /// replaces `"self"`; a manifest's policy (`caller` nil, `inManifest`) may not name connections.
    /// - Throws: ``SessionError/invalidArguments(_:)`` naming what is wrong.
    public static func parse(json text: String, caller: String?, inManifest: Bool = false) throws(SessionError) -> WindowPolicy? {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed != "null", trimmed != "{}" else { return nil }
        guard text.utf8.count <= 16 * 1024 else {
            throw .invalidArguments("policy_json is \(text.utf8.count) bytes; at most 16384")
        }
        let object: [String: [String]]
        do throws(JSONInput.Failure) {
            object = try JSONInput.decode([String: [String]].self, from: text, limit: 16 * 1024)
        } catch {
            throw .invalidArguments("policy_json: \(error.message) (an object of principal lists: {\"change\":[…],\"manage\":[…]})")
        }
        for key in object.keys where key != "change" && key != "manage" {
            throw .invalidArguments("policy_json: unknown key '\(key)' (known: change, manage)")
        }
        guard let change = object["change"] else {
            throw .invalidArguments("policy_json: 'change' is required ([] for a window no client may change)")
        }
        let manage = object["manage"] ?? defaultManage
        guard !manage.isEmpty else {
            throw .invalidArguments("policy_json: 'manage' may not be empty (no one could ever change the policy)")
        }
        return WindowPolicy(
            change: try principals(change, key: "change", caller: caller, inManifest: inManifest),
            manage: try principals(manage, key: "manage", caller: caller, inManifest: inManifest))
    }

    private static func principals(
        _ list: [String], key: String, caller: String?, inManifest: Bool
    ) throws(SessionError) -> [String] {
        guard list.count <= maxPrincipals else {
            throw .invalidArguments("policy_json: '\(key)' names \(list.count) principals; at most \(maxPrincipals)")
        }
        var out: [String] = []
        for principal in list {
            let resolved: String
            if principal == "self" {
                guard let caller, !inManifest else {
                    throw .invalidArguments("policy_json: '\(key)': \"self\" names the caller; a manifest has none")
                }
                resolved = caller
            } else {
                try check(principal, key: key, inManifest: inManifest)
                resolved = principal
            }
            if !out.contains(resolved) { out.append(resolved) }
        }
        return out
    }

    private static func check(_ principal: String, key: String, inManifest: Bool) throws(SessionError) {
        if principal == "*" || principal == "host" { return }
        if principal.hasPrefix("app:") {
            let id = principal.dropFirst(4)
            guard isAppID(id) else {
                throw .invalidArguments(
                    "policy_json: '\(key)': \"\(principal.prefix(80))\" is not an application id (app:org.example.App)")
            }
            return
        }
        if principal.hasPrefix(":") {
            guard !inManifest else {
                throw .invalidArguments("policy_json: '\(key)': a manifest cannot name a connection (\(principal.prefix(80)))")
            }
            let rest = principal.utf8.dropFirst()
            guard principal.utf8.count <= 255, !rest.isEmpty,
                rest.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E })
            else {
                throw .invalidArguments("policy_json: '\(key)': \"\(principal.prefix(80))\" is not a unique bus name (:1.42)")
            }
            return
        }
        throw .invalidArguments(
            "policy_json: '\(key)': unknown principal \"\(principal.prefix(80))\" (known: \"*\", \"host\", \"app:ID\", "
                + "a unique name \":1.42\", \"self\")")
    }

    /// A Flatpak application id: 2–255 characters in at least two '.'-separated elements of ASCII letters, digits,
    /// '_' and '-', none starting with a digit.
    static func isAppID(_ id: Substring) -> Bool {
        guard id.utf8.count <= 255 else { return false }
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
            return element.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F || byte == 0x2D
            }
        }
    }

    /// Whether a client matches one of `principals`: `share` is its process's share (``Session/share(of:)``),
    /// `app` its Flatpak app id (`""`: not sandboxed; `nil`: not known), `shareOf` the share of a named connection.
    static func matches(
        _ principals: [String], client: String, app: String?, share: String, shareOf: (String) -> String
    ) -> Bool {
        for principal in principals {
            switch principal {
            case "*": return true
            case "host": if app == "" { return true }
            default:
                if principal.hasPrefix("app:") {
                    if let app, !app.isEmpty, principal.utf8.dropFirst(4).elementsEqual(app.utf8) { return true }
                } else if principal == client || shareOf(principal) == share {
                    return true
                }
            }
        }
        return false
    }

    /// The policy without its unique names (a `manage` left empty is the default): what it is after a restart, when
    /// the bus may be another one whose `:1.42` is another client. Fails closed: a window only its connection could
    /// change becomes one no client can, until a manager sets it again.
    public var withoutConnections: WindowPolicy {
        let manage = manage.filter { !$0.hasPrefix(":") }
        return WindowPolicy(change: change.filter { !$0.hasPrefix(":") }, manage: manage.isEmpty ? Self.defaultManage : manage)
    }

    /// `{"change":[…],"manage":[…]}` (keys sorted).
    public var json: String {
        func list(_ values: [String]) -> String {
            var out: [UInt8] = [0x5B]
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(0x2C) }
                _ = DirectJSON.appendString(value, to: &out)
            }
            out.append(0x5D)
            return String(decoding: out, as: UTF8.self)
        }
        return #"{"change":\#(list(change)),"manage":\#(list(manage))}"#
    }
}

extension WindowPolicy: Codable {
    private enum CodingKeys: String, CodingKey { case change, manage }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        change = try c.decode([String].self, forKey: .change)
        manage = try c.decodeIfPresent([String].self, forKey: .manage) ?? Self.defaultManage
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(change, forKey: .change)
        try c.encode(manage, forKey: .manage)
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) ?? first
        return Substring(scalars[first...last])
    }
}
