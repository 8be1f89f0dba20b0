import DBusTestSupport
import Foundation
import Testing

/// Runs the built `navsessionctl` binary (built next to the test bundle by `swift build --build-tests`).
struct PlanCommandTests {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func binary() throws -> URL { try BuiltProduct.require("navsessionctl") }

    static func run(_ arguments: [String]) async throws -> Output {
        let result = try await ToolRunner.run(try binary().path, arguments, environment: [:], timeout: .seconds(60))
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test func printsTheStatesAsOneCompactLine() async throws {
        let output = try await Self.run([
            "plan", "--from", #"[{"style":"sheet","screen":"2"},{"style":"cover","screen":"3"}]"#, "--to", "[]",
        ])
        #expect(output.status == 0)
        #expect(output.stdout == #"""
            [[{"style":"sheet","screen":"2","withNavigation":false},{"style":"cover","screen":"3","withNavigation":false}],[{"style":"sheet","screen":"2","withNavigation":false}],[]]

            """#)
    }

    @Test func flagsReachThePlanner() async throws {
        let output = try await Self.run([
            "plan", "--from", "[]", "--to", #"[{"style":"push","screen":"a"},{"style":"push","screen":"b"}]"#,
            "--pushes-in-one", "--multi-dismiss",
        ])
        #expect(output.stdout == #"[[],[{"style":"push","screen":"a"},{"style":"push","screen":"b"}]]"# + "\n")
    }

    @Test func badRoutesPrintOneLineOnStderrAndFail() async throws {
        let output = try await Self.run(["plan", "--from", "[]", "--to", #"[{"style":"mo dal","screen":"a"}]"#])
        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr
            == "navsessionctl plan: --to: element 0: unknown style 'mo dal' (expected push, sheet, cover or a presentation kind's name)\n")
    }
}
