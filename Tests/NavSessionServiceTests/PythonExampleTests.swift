import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Runs `Examples/python-integration-test` (pytest with Debian's python3-gi) against the built daemon, so
/// the example other test suites copy keeps working. Its fixtures are the navsession package's pytest plugin,
/// taken from the repository's `python/` folder.
@Suite struct PythonExampleTests {
    @Test func thePythonIntegrationExamplePasses() async throws {
        let python = "/usr/bin/python3"
        let example = PrivateBus.repositoryRoot.appendingPathComponent("Examples/python-integration-test").path
        let package = PrivateBus.repositoryRoot.appendingPathComponent("python").path
        let result = try await ToolRunner.run(
            python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "navsession.pytest_plugin", example],
            environment: [
                "NAVSESSIOND": try DaemonFixture.binary().path, "PATH": "/usr/bin:/bin", "PYTHONPATH": package,
                "PYTHONDONTWRITEBYTECODE": "1",
            ],
            timeout: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("passed"), "\(result)")
    }
}
