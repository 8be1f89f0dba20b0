import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Docs/coming-from.md maps other libraries' verbs to NavSession's: every command it shows must be one the
/// daemon reads, and every member and `navsessionctl exec` operation it names must exist.
@Suite struct ComingFromDocumentationTests {
    static let root = PrivateBus.repositoryRoot

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The backticked spans of the page's table rows, from the NavSession columns (the first column is the
    /// other library's).
    static func spans() throws -> [String] {
        let rows = try text("Docs/coming-from.md").split(separator: "\n").filter { $0.hasPrefix("| ") }
        return rows.flatMap { row in
            row.split(separator: " | ").dropFirst().flatMap { cell in
                cell.matches(of: #/`([^`]+)`/#).map { String($0.output.1) }
            }
        }
    }

    /// Each JSON command or batch the page shows, as a batch.
    static func batches() throws -> [String] {
        try spans().compactMap { span in
            if span.hasPrefix(#"{"command""#) { return "[" + span + "]" }
            if span.hasPrefix(#"[{"command""#) { return span }
            return nil
        }
    }

    @Test func theLibrariesEachHaveTheirTable() throws {
        let page = try Self.text("Docs/coming-from.md")
        for library in [
            "FlowStacks", "NavigationViewKit", "Jetpack Navigation", "React Navigation", "go_router", "SwiftUINavigation",
            "SwiftUICoordinator", "swift-navigation", "Split views",
        ] {
            #expect(page.contains("## \(library)"), "no section for \(library)")
        }
    }

    @Test func everyCommandThePageShowsIsOneTheDaemonReads() async throws {
        let batches = try Self.batches()
        #expect(batches.count >= 40)
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.logIn(window)
            for batch in batches {
                // A dry run: whether it applies depends on the state, but the daemon must read it.
                do {
                    _ = try await fixture.window(window, "Check", [.string(batch), .noParams])
                } catch let error as BusError {
                    #expect(error.name.rawValue != "org.navsession.Error.InvalidBatch", "\(batch): \(error)")
                }
            }
        }
    }

    @Test func everyMemberAndOperationThePageNamesExists() throws {
        let xml = try Self.text("dbus/org.navsession.Window1.xml") + Self.text("dbus/org.navsession.Session1.xml")
        let members = Set(xml.matches(of: #/<(?:method|property|signal) name="([A-Za-z]+)"/#).map { String($0.output.1) })
        let table = try Self.text("Sources/navsessionctl/ExecOperation+Table.swift")
        let operations = Set(table.matches(of: #/name: "([a-z-]+)"/#).map { String($0.output.1) })
        var checkedMembers = 0
        var checkedOperations = 0
        for span in try Self.spans() {
            // `GoBack`, `SetParams(0, {id: 2}, false)`, `Session1.OpenURL(…)`, `Present("cover", …)`
            if let match = span.wholeMatch(of: #/(?:Window1\.|Session1\.)?([A-Z][A-Za-z]+)(?:\(.*\))?/#) {
                let name = String(match.output.1)
                #expect(members.contains(name), "Docs/coming-from.md names \(name), which no interface has")
                checkedMembers += 1
            }
            // `go-back`, `set-params 0 id=2`, `bring-to-front --tag=order`
            if let match = span.prefixMatch(of: #/([a-z]+(?:-[a-z]+)+)(?: .*)?/#), !span.contains("_") {
                let operation = String(match.output.1)
                #expect(operations.contains(operation), "Docs/coming-from.md names `exec \(operation)`, which navsessionctl lacks")
                checkedOperations += 1
            }
        }
        #expect(checkedMembers >= 20 && checkedOperations >= 10)
    }
}
