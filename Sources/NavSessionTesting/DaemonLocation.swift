import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import Synchronization

extension NavSessionTestDaemon {
    /// The `navsessiond` to run: `path`, else `$NAVSESSIOND`, else next to the running test binary, else
    /// this package's `.build/debug/navsessiond`.
    static func daemonBinary(_ path: String?) throws(StartError) -> URL {
        if let path { return URL(fileURLWithPath: path) }
        if let path = ProcessInfo.processInfo.environment["NAVSESSIOND"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let running = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("navsessiond"),
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/navsessiond"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw StartError(
                reason: "no navsessiond found (looked at \(candidates.map(\.path).joined(separator: ", "))); "
                    + "build it or pass Configuration.daemonPath or $NAVSESSIOND",
                output: "")
        }
        return found
    }

    /// The arguments after `--bus ADDRESS`, and the application id to wait for.
    static func daemonArguments(_ configuration: Configuration, binary: URL, directory: URL) throws(StartError)
        -> ([String], String)
    {
        var arguments: [String] = []
        var manifestID: String?
        switch configuration.manifest {
        case .demo:
            manifestID = NavSessionClient.defaultApplicationID
        case .file(let path):
            arguments += ["--manifest", path]
            manifestID = (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap(Self.manifestID)
        case .json(let json):
            let file = directory.appendingPathComponent("manifest.json")
            do {
                try Data(json.utf8).write(to: file)
            } catch {
                throw StartError(reason: "cannot write the manifest to \(file.path): \(error)", output: "")
            }
            arguments += ["--manifest", file.path]
            manifestID = Self.manifestID(Data(json.utf8))
        }
        guard let applicationID = configuration.applicationID ?? manifestID else {
            throw StartError(reason: "the manifest has no \"id\"; set Configuration.applicationID", output: "")
        }
        if configuration.applicationID != nil { arguments += ["--name", applicationID] }
        if supportsEphemeral(binary) {
            arguments.append("--ephemeral")
        } else {
            arguments += ["--state-dir", directory.appendingPathComponent("state").path]
        }
        return (arguments + configuration.extraArguments, applicationID)
    }

    /// The `id` of manifest JSON.
    static func manifestID(_ data: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["id"] as? String
    }

    /// Whether `navsessiond --help` lists `--ephemeral` (asked once per binary).
    static func supportsEphemeral(_ binary: URL) -> Bool {
        if let known = helpCache.withLock({ $0[binary.path] }) { return known }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--help"]
        process.environment = environment(for: nil)
        let output = directoryForHelp().appendingPathComponent("navsessiond-help-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        guard let handle = try? FileHandle(forWritingTo: output) else { return false }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        try? handle.close()
        let help = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let supported = help.contains("--ephemeral")
        helpCache.withLock { $0[binary.path] = supported }
        return supported
    }

    private static func directoryForHelp() -> URL { FileManager.default.temporaryDirectory }

    /// What `--help` said about `--ephemeral`, by binary path.
    private static let helpCache = Mutex<[String: Bool]>([:])

    /// The daemon's environment: ours without any D-Bus address, plus the private bus's.
    static func environment(for address: String?) -> [String: String] {
        var environment: [String: String] = [:]
        let extra = address.map { ["DBUS_SESSION_BUS_ADDRESS": $0] } ?? [:]
        for entry in PrivateBusDaemon.cleanEnvironment(adding: extra) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return environment
    }
}
