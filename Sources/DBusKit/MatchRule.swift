/// A typed D-Bus match rule for signal subscriptions.
///
/// Only signals are matched. Every field left `nil` matches anything.
///
/// ```swift
/// let rule = MatchRule(sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"),
///                      arguments: [0: ":1.42"])
/// rule.text   // "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',..."
/// ```
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The sender. A well-known name is resolved by the bus; local filtering then trusts the bus.
    public var sender: BusName?
    /// The exact object path.
    public var path: ObjectPath?
    /// The path or anything below it (`path_namespace`).
    public var pathNamespace: ObjectPath?
    /// The interface.
    public var interface: InterfaceName?
    /// The signal name.
    public var member: MemberName?
    /// String arguments that must match exactly, by index (`arg0`, `arg1`, …; at most 63).
    public var arguments: [Int: String]

    /// Creates a rule; leave fields `nil` to match anything.
    public init(
        sender: BusName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        interface: InterfaceName? = nil, member: MemberName? = nil, arguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The rule in the bus's text syntax, as sent with `AddMatch`.
    public var text: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender.rawValue)'") }
        if let path { parts.append("path='\(path.rawValue)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace.rawValue)'") }
        if let interface { parts.append("interface='\(interface.rawValue)'") }
        if let member { parts.append("member='\(member.rawValue)'") }
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) {
            parts.append("arg\(index)=\(Self.quote(value))")
        }
        return parts.joined(separator: ",")
    }

    /// A readable form for logs and messages.
    public var description: String { text }

    /// Quotes a value: apostrophes cannot appear inside quotes, so they are written as `'\''`.
    static func quote(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    func validate() throws(ValidationError) {
        for (index, value) in arguments {
            guard (0...63).contains(index) else {
                throw ValidationError(.address, "match rule argument index \(index) is outside 0...63")
            }
            try NameValidation.checkString(value)
        }
    }

    /// Whether a received signal matches; mirrors the bus's rules for the fields this type has.
    func matches(_ signal: Signal) -> Bool {
        if let sender, sender.isUnique || sender == .bus, signal.sender != sender { return false }
        if let path, signal.path != path { return false }
        if let pathNamespace, !signal.path.isDescendant(of: pathNamespace) { return false }
        if let interface, signal.interface != interface { return false }
        if let member, signal.member != member { return false }
        for (index, expected) in arguments {
            guard index < signal.arguments.count, signal.arguments[index].string == expected else { return false }
        }
        return true
    }
}
