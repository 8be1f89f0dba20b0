import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The Python package `python/`: its own pytest suite against the built daemon, and its acceptance check:
/// `pip install` of the folder into a fresh venv, offline, then the 20-line example script
/// follows a window and pushes a screen.
@Suite struct PythonPackageTests {
    static let python = "/usr/bin/python3"
    static let package = PrivateBus.repositoryRoot.appendingPathComponent("python")

    @Test func thePackagesTestsPassAgainstTheDaemon() async throws {
        let result = try await ToolRunner.run(
            Self.python, ["-m", "pytest", "-q", Self.package.appendingPathComponent("tests").path],
            environment: [
                "NAVSESSIOND": try DaemonFixture.binary().path, "PYTHONPATH": Self.package.path,
                "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1",
            ],
            // A liveness bound, not a latency: the suite runs GTK applications under Xvfb, and beside eight busy
            // loops on two cores it takes several minutes.
            timeout: Liveness.bound(.seconds(900)))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(" passed"), "\(result)")
        // " failed"/" error": the summary's counts (strict xfails, documented differences, read "12 xfailed").
        #expect(!result.stdout.contains(" failed") && !result.stdout.contains(" error"), "\(result)")
    }

    /// A venv with `--system-site-packages` (Debian's gi and pytest) and the package pip-installed from a copy of
    /// `python/`, offline (`--no-index`, `--no-build-isolation`: setuptools from python3-setuptools); the copy is
    /// deleted afterwards, so only the installed package remains. Returns the venv's path.
    static func installedVenv(in scratch: URL) async throws -> String {
        let source = scratch.appendingPathComponent("python")
        try FileManager.default.copyItem(at: package, to: source)
        let venv = scratch.appendingPathComponent("venv").path
        let made = try await ToolRunner.run(
            python, ["-m", "venv", "--system-site-packages", venv], environment: offline(scratch), timeout: .seconds(120))
        try #require(made.status == 0, "\(made)")
        // README's own line, as printed, run where `./python` is the copy, with no index reachable (offline).
        let readme = try String(contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.firstMatch(of: #/pip install [^`]*\./python/#).map { String($0.output) })
        let installed = try await ToolRunner.run(
            "/bin/bash", ["-c", "cd '\(scratch.path)' && '\(venv)/bin/'\(line)"],
            environment: offline(scratch), timeout: .seconds(180))
        try #require(installed.status == 0, "README's '\(line)': \(installed)")
        try FileManager.default.removeItem(at: source)
        return venv
    }

    static func offline(_ scratch: URL) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": scratch.path, "PIP_NO_INDEX": "1", "PIP_NO_CACHE_DIR": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1",
        ]
    }

    static func scratchDirectory() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-pip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return scratch
    }

    @Test func pipInstallsThePackageOfflineAndTheExampleFollowsAWindowAndPushes() async throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let venv = try await Self.installedVenv(in: scratch)
        let example = Self.package.appendingPathComponent("examples/follow_and_push.py").path
        try await DaemonFixture.withDaemon { daemon in
            let which = try await daemon.run(
                "\(venv)/bin/python", ["-c", "import navsession; print(navsession.__file__)"], timeout: .seconds(60))
            #expect(which.status == 0 && which.stdout.hasPrefix(venv), "\(which)")
            let run = try await daemon.run("\(venv)/bin/python", [example], timeout: .seconds(60))
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == "version 1: ['switch']\nversion 2: ['push']\nnow on detail, can go back: True\n", "\(run)")
        }
    }

    /// Drives the GTK example from a directory outside the repository with the venv's Python (only the installed
    /// package): Xvfb, the application, then its report once the daemon's window is settled; prints the shown page.
    static let gtkDriver = #"""
        import json, os, signal, subprocess, sys
        from gi.repository import GLib
        import navsession
        print("package", navsession.__file__)
        os.chdir(sys.argv[1])
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        display = os.read(read, 64).decode().strip()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(DISPLAY=":" + display, GDK_BACKEND="x11", GTK_A11Y="none", NO_AT_BRIDGE="1",
                   NAVSESSION_GTK_TEST_REPORT=os.path.abspath("report.jsonl"))
        app = subprocess.Popen([sys.executable, "notes_app.py"], env=env)
        try:
            session = navsession.connect(os.environ["DBUS_SESSION_BUS_ADDRESS"], "org.example.Notes", start=False)
            found = []
            stop = session.follow_windows(found.append, lambda _path: None)
            expired = []
            GLib.timeout_add_seconds(120, lambda: expired.append(True) or False)
            while not found and not expired and app.poll() is None:
                GLib.MainContext.default().iteration(True)
            stop()
            window = found[0]
            # SettledBy names the renderer that reported: empty until the application has shown the window.
            window.wait_for(lambda w: w.settled_by and w.settled_version >= w.version, timeout=120)
            lines = [json.loads(line) for line in open("report.jsonl", encoding="utf-8") if line.strip()]
            print("page", json.dumps(lines[-1]["page"], sort_keys=True))
        finally:
            app.send_signal(signal.SIGTERM)
            app.wait(timeout=120)
            xvfb.terminate()
        """#

    /// The GTK example of Docs/python.md ("Your own widgets"), written outside the repository and run with only the
    /// installed package (a venv, no PYTHONPATH): it shows its own widgets for its screens under Xvfb.
    @Test func theDocumentsGTKExampleShowsItsWidgetsFromTheInstalledPackageOutsideTheRepository() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else { return }
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let venv = try await Self.installedVenv(in: scratch)
        let docs = try String(
            contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("Docs/python.md"), encoding: .utf8)
        let section = try #require(docs.range(of: "## Your own widgets: navsession.gtk")).upperBound
        func block(_ language: String) throws -> String {
            let start = try #require(docs[section...].range(of: "```\(language)\n")).upperBound
            let end = try #require(docs[start...].range(of: "```")).lowerBound
            return String(docs[start..<end])
        }
        let app = scratch.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try block("python").write(to: app.appendingPathComponent("notes_app.py"), atomically: true, encoding: .utf8)
        let configuration = try DaemonFixture.serviceConfiguration(manifest: .json(try block("json")))
        try await DaemonFixture.withDaemon(configuration) { daemon in
            let run = try await daemon.run("\(venv)/bin/python", ["-c", Self.gtkDriver, app.path], timeout: Liveness.bound(.seconds(300)))
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains("package \(venv)"), "the installed package: \(run.stdout)")
            #expect(run.stdout.contains(#""factory": "note_list""#) && run.stdout.contains(#""widget": "GtkScrolledWindow""#),
                    "the list screen drawn by the application's own function: \(run)")
        }
    }

    /// Installed, the plugin loads through its pytest11 entry point: the Python example runs with no `-p` and no
    /// PYTHONPATH.
    @Test func theInstalledPackagesPluginRunsThePythonExample() async throws {
        let scratch = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let venv = try await Self.installedVenv(in: scratch)
        let example = PrivateBus.repositoryRoot.appendingPathComponent("Examples/python-integration-test").path
        var environment = Self.offline(scratch)
        environment["NAVSESSIOND"] = try DaemonFixture.binary().path
        let result = try await ToolRunner.run(
            "\(venv)/bin/python", ["-m", "pytest", "-q", "-p", "no:cacheprovider", example],
            environment: environment, timeout: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("3 passed"), "\(result)")
    }
}
