import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl policy WINDOW [POLICY_JSON]`: Session1.SetWindowPolicy — who may change the window
/// (Docs/window-policy.md); `""` removes the policy. Prints nothing. Without POLICY_JSON, prints the window's policy
/// (GetState's `policy`, `{}` when it has none).
struct PolicyCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Set who may change a window ('' removes it), or print its policy."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The window (a number or an object path).")
    var window: WindowArgument

    @Argument(help: #"The policy: {"change":["host","app:ID",":1.42","self","*"],"manage":["host"]}; '' removes it."#)
    var policy: String?

    func run() async throws {
        if let policy {
            try await reportingFailures {
                try await withClient { client in
                    try await client.session.setWindowPolicy(try windowProxy(window, of: client), policyJSON: policy)
                }
            }
        } else {
            try await printReply({ client in try await windowProxy(window, of: client).getStateJSON() }, as: Self.policyLine)
        }
    }

    /// The `policy` of a GetState document, `{}` when there is none.
    static func policyLine(_ state: String) throws -> String {
        // The daemon writes it last: `…,"policy":{…}}`.
        let bytes = Array(state.utf8)
        let key = Array(#","policy":"#.utf8)
        guard bytes.last == UInt8(ascii: "}"), bytes.count > key.count else { return "{}" }
        var start = bytes.count - key.count - 1
        while start >= 0 {
            if bytes[start..<(start + key.count)].elementsEqual(key) {
                return String(decoding: bytes[(start + key.count)..<(bytes.count - 1)], as: UTF8.self)
            }
            start -= 1
        }
        return "{}"
    }
}

extension PolicyCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .positional { $0.window = $1 }, .optional { $0.policy = $1 })
}
