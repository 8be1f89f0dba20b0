import DBusTestSupport
import Foundation
import NavSessionInterface
import NavSessionTesting
import Testing

/// The contract is declared once, in dbus/*.xml: the generated tables are the generator's output and the documented
/// error names are the contract's. (`IntrospectionContractTests` checks that the daemon serves exactly the XML's
/// members; the service takes their arguments from the generated tables, so a row cannot disagree with them.)
@Suite struct InterfaceContractTests {
    static let root = PrivateBus.repositoryRoot
    static let generated = [
        "Sources/NavSessionInterface/Contract.generated.swift", "Sources/NavSessionClient/NavSessionError+Names.generated.swift",
        "python/navsession/contract.py", "Sources/NavSessionClient/WindowProxy+Methods.generated.swift",
        "python/navsession/_window_generated.py",
    ]

    @Test func theGeneratedTablesAreWhatScriptsGenerateInterfaceWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navcontract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await ToolRunner.run(
            "/usr/bin/python3", [Self.root.appendingPathComponent("scripts/generate-interface").path, directory.path],
            environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        for path in Self.generated {
            let fresh = try Data(contentsOf: directory.appendingPathComponent(path))
            let committed = try Data(contentsOf: Self.root.appendingPathComponent(path))
            #expect(committed == fresh, "\(path) is not scripts/generate-interface's output: run it and commit")
        }
    }

    @Test func theDocumentedErrorNamesAreTheContracts() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("Docs/dbus-api.md"), encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "## Every error name").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let documented = Set(
            section.matches(of: #/`(org\.(navsession|freedesktop\.DBus)\.Error\.[A-Za-z]+)`/#).map { String($0.output.1) })
        #expect(documented == Set(NavSessionInterface.ErrorName.all))
    }

    /// Every method, property and signal of the contract is named in Docs/dbus-api.md (`Name` or `Name(…)`), so a
    /// member added to the XML cannot go undocumented.
    @Test func everyMemberOfTheContractIsNamedInTheAPIDocs() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("Docs/dbus-api.md"), encoding: .utf8)
        var missing: [String] = []
        for file in ["org.navsession.Session1.xml", "org.navsession.Window1.xml"] {
            let xml = try String(contentsOf: Self.root.appendingPathComponent("dbus/\(file)"), encoding: .utf8)
            for match in xml.matches(of: #/<(?:method|property|signal) name="(\w+)"/#) {
                let name = String(match.output.1)
                if !doc.contains("`\(name)`") && !doc.contains("`\(name)(") { missing.append("\(file): \(name)") }
            }
        }
        #expect(missing == [], "members of the contract Docs/dbus-api.md does not name")
    }
}
