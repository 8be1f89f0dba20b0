import DBusKit
import Foundation

/// One callable member found by introspection: a method with its input types, or a property.
struct Target {
    enum Kind { case method([SignatureType]), property(SignatureType, writable: Bool) }
    var path: String
    var interface: String
    var member: String
    var kind: Kind

    /// The methods and properties declared in an `Introspect` reply (a small scanner, enough for the
    /// XML libdbus-style services produce), plus the `<node name>` children.
    static func parse(_ xml: String, path: String) -> (targets: [Target], children: [String]) {
        var targets: [Target] = []
        var children: [String] = []
        var interface = ""
        var method: (name: String, inputs: [SignatureType])?
        for rawTag in xml.split(separator: "<").dropFirst() {
            let tag = rawTag.prefix { $0 != ">" }
            func attribute(_ name: String) -> String? {
                guard let range = tag.range(of: "\(name)=\"") else { return nil }
                return String(tag[range.upperBound...].prefix { $0 != "\"" })
            }
            if tag.hasPrefix("interface ") {
                interface = attribute("name") ?? ""
            } else if tag.hasPrefix("node "), let name = attribute("name") {
                children.append(name)
            } else if tag.hasPrefix("method ") {
                let name = attribute("name") ?? ""
                method = (name, [])
                if tag.hasSuffix("/") {
                    targets.append(Target(path: path, interface: interface, member: name, kind: .method([])))
                    method = nil
                }
            } else if tag.hasPrefix("arg "), method != nil, attribute("direction") != "out",
                let type = attribute("type"), let parsed = try? Signature(type)
            {
                method?.inputs.append(contentsOf: parsed.types)
            } else if tag.hasPrefix("/method"), let done = method {
                targets.append(Target(path: path, interface: interface, member: done.name, kind: .method(done.inputs)))
                method = nil
            } else if tag.hasPrefix("property "), let name = attribute("name"), let type = attribute("type"),
                let parsed = try? Signature(type), let first = parsed.types.first
            {
                let access = attribute("access") ?? "read"
                targets.append(
                    Target(path: path, interface: interface, member: name, kind: .property(first, writable: access.contains("write"))))
            }
        }
        return (targets, children)
    }
}
