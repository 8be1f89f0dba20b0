import DBusTestSupport
import Foundation
import Testing

/// The exec table reaches every method of the Window1 contract.
@Suite(.timeLimit(.minutes(1)))
struct ExecTableTests {
    /// Method names declared in a contract XML file.
    static func methods(in file: String) throws -> [String] {
        let xml = try String(contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("dbus/\(file)"), encoding: .utf8)
        return xml.components(separatedBy: "<method name=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
            .map(String.init)
    }

    @Test func everyWindowMethodAndApplyHasAnExecCommand() async throws {
        let help = try await Ctl.run(["exec", "--help"])
        #expect(help.status == 0)
        let methods = try Self.methods(in: "org.navsession.Window1.xml") + ["Apply"]
        #expect(methods.count > 25)
        for method in methods {
            #expect(help.stdout.contains("(\(method))"), "exec --help does not list \(method)")
        }
    }
}

/// `exec --help`: USAGE first, then the commands as a table wrapped to the terminal's width.
@Suite(.timeLimit(.minutes(1)))
struct ExecHelpTests {
    @Test(arguments: ["60", "80", "120"])
    func usageFirstAndATableThatWraps(columns: String) async throws {
        let help = try await Ctl.run(["exec", "--help"], environment: ["COLUMNS": columns])
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.hasPrefix("USAGE: navsessionctl exec "), "\(help)")
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let commands = try #require(lines.firstIndex(of: "COMMANDS:"), "\(help)")
        #expect(commands > lines.firstIndex { $0.hasPrefix("OPTIONS:") } ?? lines.endIndex)
        let table = lines[(commands + 1)...].filter { !$0.isEmpty }
        #expect(table.allSatisfy { $0.count <= Int(columns)! }, "\(help)")
        #expect(table.contains { $0.hasPrefix("  stack-append ") || $0 == "  stack-append" }, "\(help)")
        #expect(table.contains { $0.hasPrefix("  dismiss-just-from-presented-at") }, "\(help)")
        // Rows: a name at column 2, continuation lines indented further.
        #expect(table.allSatisfy { $0.hasPrefix("  ") }, "\(help)")
    }

    @Test func helpExecAndHelpAfterTheWindowGiveTheSameText() async throws {
        let environment = ["COLUMNS": "80"]
        let help = try await Ctl.run(["exec", "--help"], environment: environment)
        for words in [["help", "exec"], ["exec", "1", "-h"], ["--dest", "org.example.X", "exec", "--help"]] {
            let other = try await Ctl.run(words, environment: environment)
            #expect(other.stdout == help.stdout, "\(words): \(other)")
        }
    }
}
