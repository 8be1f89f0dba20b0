import DBusKit

/// One method call the fuzzer sends, and what a success reply must look like.
struct FuzzCall: Sendable {
    /// How it was made: `valid`, `typed`, `wrong-signature`, `properties`, `standard`, `unknown-member`.
    var origin: String
    var path: ObjectPath
    /// `nil` sends no interface field (the daemon dispatches by member name).
    var interface: InterfaceName?
    var member: MemberName
    var arguments: [Value]
    /// Sent from a second connection that closes right after the call is written, without waiting.
    var vanishes = false
    /// The connection it is sent from (`--misbehaving-provider`: also the marks' owner and the provider).
    var connection: Connection = .main
    /// That connection leaves the bus after the reply (the marks' owner comes back on its next call, the
    /// provider at once).
    var leavesAfter = false

    enum Connection: String, Sendable {
        /// The fuzzer's own connection.
        case main
        /// A second connection that owns marks (`Protect`) and sometimes leaves.
        case marks
        /// The misbehaving guard provider's connection.
        case provider
    }
    /// The declared output types when the arguments match the declared inputs; a success reply must have them.
    var expectedOutputs: [SignatureType]?

    /// The body signature, e.g. `sa{ss}`.
    var signature: String { arguments.map(\.type.description).joined() }

    /// How many file descriptors the call carries.
    var descriptorCount: Int { arguments.reduce(0) { $0 + ValueDump.descriptorCount($1) } }

    /// Member, path and signature with a shorter argument dump.
    var shortSummary: String {
        let line = summary
        return line.unicodeScalars.count > 300 ? String(String.UnicodeScalarView(line.unicodeScalars.prefix(300))) + "…" : line
    }

    /// One line for failure reports: member, path, signature and a truncated dump of the arguments.
    var summary: String {
        let name = (interface.map { $0.rawValue + "." } ?? "(no interface) ") + member.rawValue
        let dump = arguments.map { ValueDump.text($0) }.joined(separator: ", ")
        return "\(name) on \(path.rawValue), signature '\(signature)'\(vanishes ? ", from a client that vanishes" : "")"
            + (connection == .main ? "" : ", from the \(connection.rawValue) connection\(leavesAfter ? ", which then leaves" : "")")
            + " [\(origin)]: (\(dump))"
    }
}
