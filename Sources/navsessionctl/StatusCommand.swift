import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore

/// `navsessionctl status`: the daemon at a glance, as `systemctl status` shows a unit — which application and
/// instance it serves, why it started, its windows, scenes, screens and guard providers (Session1's properties,
/// one `GetAll`).
struct StatusCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's application, instance, restore reason, windows, scenes, screens and guards.",
        discussion: "Text: 'APPLICATION_ID (instance INSTANCE)' then one 'key: value' line each for the owner, the "
            + "restore reason (and where the crash-loop guard set the old state aside), the session version, the "
            + "windows, scenes, screens and guards ('GUARD=PROVIDER', '-' for none). --json: {\"applicationId\", "
            + "\"instance\", \"owner\", \"restoreReason\", \"restoreSetAside\", \"version\", \"windows\", \"scenes\", "
            + "\"screens\", \"guards\"}."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    func run() async throws {
        try await printReply({ client in
            (try await client.session.properties(), try await client.daemonUniqueName())
        }) { properties, owner in
            json ? Self.json(properties, owner: owner) : Self.text(properties, owner: owner)
        }
    }

    /// The text form: a headline and one `key: value` line each.
    static func text(_ p: SessionProperties, owner: String) -> String {
        func list(_ items: [String]) -> String { items.isEmpty ? "-" : items.joined(separator: " ") }
        let numbers = p.windows.map { path in path.split(separator: "/").last.map(String.init) ?? path }
        let guards = p.guards.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.isEmpty ? "-" : $0.value)" }
        let setAside = p.restoreSetAside.isEmpty ? "" : " (previous state set aside: \(p.restoreSetAside))"
        return """
            \(p.applicationID)\(p.instance.isEmpty ? "" : " (instance \(p.instance))")
              owner: \(owner)
              restore reason: \(p.restoreReason)\(setAside)
              version: \(p.version)
              windows: \(list(numbers))
              scenes: \(list(p.scenes))
              screens: \(list(p.screens))
              guards: \(list(guards))
            """
    }

    /// The JSON form: one object, keys in a fixed order.
    static func json(_ p: SessionProperties, owner: String) -> String {
        func strings(_ items: [String]) -> String { "[" + items.map(JSONString.literal).joined(separator: ",") + "]" }
        return "{\"applicationId\":\(JSONString.literal(p.applicationID)),\"instance\":\(JSONString.literal(p.instance)),"
            + "\"owner\":\(JSONString.literal(owner)),\"restoreReason\":\(JSONString.literal(p.restoreReason)),"
            + "\"restoreSetAside\":\(JSONString.literal(p.restoreSetAside)),\"version\":\(p.version),"
            + "\"windows\":\(strings(p.windows)),\"scenes\":\(strings(p.scenes)),\"screens\":\(strings(p.screens)),"
            + "\"guards\":\(JSONString.object(p.guards))}"
    }
}

extension StatusCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 })
}
