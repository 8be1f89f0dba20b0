import ArgumentParser
import NavigationSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which manifest the daemon serves (`--manifest`, `--demo`, or the one installed for `--name`), and
/// `--check-manifest` for application authors (Docs/applications.md).
extension NavSessionDaemon {
    /// `--check-manifest FILE`: the first problem as `FILE:LINE:COLUMN: error: …` on stderr and status 65 (66 when
    /// the file cannot be read); `FILE: valid manifest of ID` on stdout and status 0.
    func checkManifest(_ path: String) -> ExitCode {
        if let diagnostic = Manifest.check(file: path) {
            Self.writeError("\(diagnostic)")
            return ExitCode(diagnostic.isUnreadable ? ExitStatus.unreadableManifest : ExitStatus.invalidManifest)
        }
        let id = (try? Manifest(contentsOfFile: path))?.applicationID ?? "?"
        print("\(path): valid manifest of \(id)")
        return .success
    }

    /// The manifest to serve: `--manifest FILE`; `--demo` or neither option nor `--name` (or `--name` of the demo):
    /// the built-in demo; else the manifest installed for `--name` (``InstalledManifests``), which must declare
    /// that id. Fails with one line on stderr and the status of the problem.
    func applicationManifest() throws -> Manifest {
        if demo, manifest != nil { throw fail("--demo and --manifest exclude each other") }
        let path: String
        if let manifest {
            path = manifest
        } else if !demo, let name, name != Self.demoApplicationID {
            do {
                path = try InstalledManifests.locate(name, environment: ProcessInfo.processInfo.environment)
            } catch let notFound as InstalledManifests.NotFound {
                throw fail(
                    "\(notFound) (install one there, give --manifest FILE, or --demo to serve the demo under this name)",
                    status: ExitStatus.unknownApplication)
            } catch {
                throw fail("invalid --name: \(error)")
            }
        } else {
            do {
                return try Manifest.demo()
            } catch {
                throw fail("invalid built-in manifest: \(error)")
            }
        }
        let application: Manifest
        do {
            application = try Manifest(contentsOfFile: path)
        } catch {
            let diagnostic = Manifest.check(file: path)
            let line = diagnostic.map(String.init(describing:)) ?? "\(path): error: \(error)"
            throw fail(
                "invalid manifest: \(line)",
                status: diagnostic?.isUnreadable == true ? ExitStatus.unreadableManifest : ExitStatus.invalidManifest)
        }
        if self.manifest == nil, let name, application.applicationID != name {
            throw fail(
                "invalid manifest: \(path): the manifest declares the application \(application.applicationID), not \(name) "
                    + "(its file name)", status: ExitStatus.invalidManifest)
        }
        return application
    }

    /// The file the served manifest was read from (what `SIGHUP` reloads); `nil` for the built-in demo.
    func servedManifestPath() -> String? {
        if let manifest { return manifest }
        guard !demo, let name, name != Self.demoApplicationID else { return nil }
        return try? InstalledManifests.locate(name, environment: ProcessInfo.processInfo.environment)
    }

    /// The built-in demo's application id: `--name` of it serves the demo, installed or not.
    static let demoApplicationID = "org.navsession.Demo"
}
