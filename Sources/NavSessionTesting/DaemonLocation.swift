import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient

extension NavSessionTestDaemon {
    /// The `navsessiond` to run: `path`, else `$NAVSESSIOND`, else next to the running test binary, else
    /// this package's `.build/debug/navsessiond`.
    static func daemonBinary(_ path: String?) throws(StartError) -> URL {
        if let path { return URL(fileURLWithPath: path) }
        if let path = ProcessInfo.processInfo.environment["NAVSESSIOND"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        guard let found = BuiltProduct.url("navsessiond") else {
            throw StartError(
                reason: "no navsessiond found (looked at \(BuiltProduct.candidates("navsessiond").map(\.path).joined(separator: ", "))); "
                    + "build it or pass Configuration.daemonPath or $NAVSESSIOND",
                output: "")
        }
        return found
    }

    /// The arguments after `--bus ADDRESS`, the application id to wait for, and the state directory.
    static func daemonArguments(_ configuration: Configuration, directory: URL) throws(StartError)
        -> ([String], String, String?)
    {
        var arguments: [String] = []
        var manifestID: String?
        switch configuration.manifest {
        case .demo:
            // `--demo`: the built-in demo also under another `--name` (which alone looks for an installed manifest).
            arguments += ["--demo"]
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
        let stateDirectory: String?
        switch configuration.state {
        case .inMemory: stateDirectory = nil
        case .throwawayDirectory: stateDirectory = directory.appendingPathComponent("state").path
        case .directory(let path): stateDirectory = path
        }
        arguments += stateDirectory.map { ["--state-dir", $0] } ?? ["--ephemeral"]
        arguments += ["--log-level", configuration.logLevel]
        return (arguments + configuration.extraArguments, applicationID, stateDirectory)
    }

    /// The `id` of manifest JSON.
    static func manifestID(_ data: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["id"] as? String
    }

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
