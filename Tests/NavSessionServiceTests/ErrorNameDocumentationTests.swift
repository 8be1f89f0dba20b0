import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// One truth for the contract: the error names the code can produce, the names `Docs/dbus-api.md` lists
/// ("Every error name") and the names the interface XML documents are the same set.
@Suite struct ErrorNameDocumentationTests {
    static let root = PrivateBus.repositoryRoot
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func names(in text: Substring) -> Set<String> {
        Set(text.matches(of: #/org\.(navsession|freedesktop\.DBus)\.Error\.[A-Za-z]+/#).map { String($0.output.0) })
    }

    static func names(in text: String) -> Set<String> { names(in: text[...]) }

    static func swiftFiles(under directory: String) throws -> [String] {
        let url = root.appendingPathComponent(directory)
        // Recursive: the big modules keep their files in subfolders by concern.
        let files = try FileManager.default.subpathsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try files.map { try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8) }
    }

    /// The names the daemon can reply with, read from the code that makes them.
    static func codeNames() throws -> Set<String> {
        var names: Set<String> = []
        for directory in ["Sources/NavigationSession", "Sources/NavigationRouting/DeepLinks", "Sources/NavSessionService"] {
            for file in try swiftFiles(under: directory) {
                let code = file.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                for line in code { names.formUnion(Self.names(in: Substring(line))) }
            }
        }
        // NavigationError names are built from a suffix per case.
        let navigation = try text("Sources/NavSessionService/ErrorNames.swift")
        for match in navigation.matches(of: #/suffix = "([A-Za-z]+)"/#) {
            names.insert("org.navsession.Error." + match.output.1)
        }
        // DBusKit answers these itself (unknown members, properties, signatures, sizes); the service a few more.
        var standard: Set<String> = []
        let serving = try swiftFiles(under: "Sources/DBusKit") + swiftFiles(under: "Sources/DBusKit/Internal")
            + swiftFiles(under: "Sources/NavSessionService")
        for file in serving {
            for match in file.matches(of: #/BusError\(\.([a-zA-Z]+)/#) {
                standard.insert(String(match.output.1))
            }
        }
        let served = ["invalidArgs", "unknownMethod", "unknownObject", "unknownInterface", "unknownProperty",
                      "propertyReadOnly", "limitsExceeded", "accessDenied", "notSupported"]
        for name in standard where served.contains(name) {
            names.insert("org.freedesktop.DBus.Error." + name.prefix(1).uppercased() + name.dropFirst())
        }
        names.remove("org.freedesktop.DBus.Error.Failed")
        return names
    }

    static func documentedNames() throws -> Set<String> {
        let doc = try text("Docs/dbus-api.md")
        let start = try #require(doc.range(of: "## Every error name"))
        let rest = doc[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        var names = names(in: rest[..<end])
        names.remove("org.freedesktop.DBus.Error.Failed")
        return names
    }

    static func interfaceNames() throws -> Set<String> {
        var names = try names(in: text("dbus/org.navsession.Window1.xml")).union(names(in: text("dbus/org.navsession.Session1.xml")))
        names.remove("org.freedesktop.DBus.Error.Failed")
        return names
    }

    @Test func docsListExactlyTheNamesTheCodeProduces() throws {
        let code = try Self.codeNames()
        let docs = try Self.documentedNames()
        #expect(code.subtracting(docs).sorted() == [], "produced but not in Docs/dbus-api.md")
        #expect(docs.subtracting(code).sorted() == [], "in Docs/dbus-api.md but never produced")
    }

    @Test func interfaceXMLDocumentsExactlyTheNamesTheCodeProduces() throws {
        let code = try Self.codeNames()
        let xml = try Self.interfaceNames()
        #expect(code.subtracting(xml).sorted() == [], "produced but not in dbus/*.xml")
        #expect(xml.subtracting(code).sorted() == [], "in dbus/*.xml but never produced")
    }

    @Test func theCodeScanFindsTheNamesItShould() throws {
        let code = try Self.codeNames()
        for name in ["org.navsession.Error.NoStack", "org.navsession.Error.VersionMismatch", "org.navsession.Error.UnknownScreen",
                     "org.freedesktop.DBus.Error.UnknownMethod", "org.navsession.Error.MalformedURL"] {
            #expect(code.contains(name), "\(name)")
        }
    }
}
