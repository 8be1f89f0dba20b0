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
