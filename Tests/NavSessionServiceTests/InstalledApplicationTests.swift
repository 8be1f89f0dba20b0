import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `navsessiond --name ID` serves the manifest an application installed (Docs/applications.md), and
/// `navsessiond --check-manifest FILE` places a manifest's first problem at its line and column.
@Suite(.timeLimit(.minutes(1)))
struct InstalledApplicationTests {
    static let id = "org.example.Notes"
    static let manifest = """
        {
          "format": 1,
          "id": "org.example.Notes",
          "screens": [{"name": "list"}, {"name": "note"}],
          "scenes": [{"name": "notes", "default": true, "root": {"kind": "stack", "path": [{"screen": "list"}]}}]
        }

        """

    /// A data directory holding `navsession/applications/<file>.json` with `text`, removed by `body`'s end.
    static func withDataDirectory<T>(
        _ file: String = id, _ text: String = manifest, _ body: (URL) async throws -> T
    ) async throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("installed-app-\(UUID().uuidString)")
        let applications = root.appendingPathComponent("share/navsession/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try text.write(to: applications.appendingPathComponent("\(file).json"), atomically: true, encoding: .utf8)
        return try await body(root)
    }

    /// The environment of a daemon that sees only `root/share` as data (no user data directory).
    static func dataEnvironment(_ root: URL) -> [String: String] {
        ["XDG_DATA_HOME": root.appendingPathComponent("home-data").path, "XDG_DATA_DIRS": root.appendingPathComponent("share").path]
    }

    @Test func theManifestInstalledForTheNameIsServed() async throws {
        let daemon = try DaemonFixture.binary().path
        try await Self.withDataDirectory { root in
            let script = """
                cd '\(root.path)'
                exec 3< <(exec '\(daemon)' --private-bus --name \(Self.id) 2> log)
                daemon=$!
                read -r address <&3
                export "$address"
                call() { dbus-send --print-reply=literal --dest=\(Self.id) /org/navsession/Session1 \\
                  org.navsession.Session1.OpenWindow string:"$1" dict:string:string: 2>&1; }
                echo "notes: $(call notes | tr -d ' ')"
                echo "main: $(call main)"
                kill $daemon; wait $daemon
                cat log
                """
            let result = try await ToolRunner.run(
                "bash", ["-c", script], environment: Self.dataEnvironment(root), timeout: .seconds(30))
            #expect(result.stdout.contains("notes: /org/navsession/Session1/window/1\n"), "\(result)")
            #expect(result.stdout.contains("main: Error org.navsession.Error.UnknownScene"), "\(result)")
        }
    }

    @Test func anUnknownApplicationIdExits78NamingEveryPathLookedAt() async throws {
        let daemon = try DaemonFixture.binary().path
        try await Self.withDataDirectory { root in
            let result = try await ToolRunner.run(
                daemon, ["--private-bus", "--name", "org.example.Missing"], environment: Self.dataEnvironment(root),
                timeout: .seconds(30))
            #expect(result.status == 78, "\(result)")
            for directory in [root.appendingPathComponent("home-data"), root.appendingPathComponent("share")] {
                let path = directory.appendingPathComponent("navsession/applications/org.example.Missing.json").path
                #expect(result.stderr.contains(path), "\(result)")
            }
        }
    }

    @Test func anInstalledManifestDeclaringAnotherIdIsRefused() async throws {
        let daemon = try DaemonFixture.binary().path
        try await Self.withDataDirectory("org.example.Other") { root in
            let result = try await ToolRunner.run(
                daemon, ["--private-bus", "--name", "org.example.Other"], environment: Self.dataEnvironment(root),
                timeout: .seconds(30))
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("declares the application org.example.Notes, not org.example.Other"), "\(result)")
        }
    }

    @Test func checkManifestAcceptsAValidManifestWithStatus0() async throws {
        let daemon = try DaemonFixture.binary().path
        try await Self.withDataDirectory { root in
            let file = root.appendingPathComponent("share/navsession/applications/\(Self.id).json").path
            let result = try await ToolRunner.run(daemon, ["--check-manifest", file], environment: [:], timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "\(file): valid manifest of \(Self.id)\n", "\(result)")
        }
    }

    @Test func checkManifestPlacesAnUnknownScreenAndExits65() async throws {
        let daemon = try DaemonFixture.binary().path
        let broken = Self.manifest.replacingOccurrences(of: #"[{"screen": "list"}]"#, with: #"[{"screen": "lsit"}]"#)
        try await Self.withDataDirectory(Self.id, broken) { root in
            let file = root.appendingPathComponent("share/navsession/applications/\(Self.id).json").path
            let result = try await ToolRunner.run(daemon, ["--check-manifest", file], environment: [:], timeout: .seconds(30))
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr == "\(file):5:84: error: scenes[0].root.path[0]: unknown screen 'lsit'\n", "\(result)")
        }
    }

    @Test func checkManifestOfAMissingFileExits66() async throws {
        let daemon = try DaemonFixture.binary().path
        let result = try await ToolRunner.run(
            daemon, ["--check-manifest", "/nonexistent/app.json"], environment: [:], timeout: .seconds(30))
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.hasPrefix("/nonexistent/app.json: error: cannot read the manifest"), "\(result)")
    }
}
