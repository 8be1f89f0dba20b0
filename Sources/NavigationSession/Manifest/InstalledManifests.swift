#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where installed applications keep their manifests, and finding one by application id (`navsessiond --name ID`).
///
/// An application installs `<data dir>/navsession/applications/<id>.json`. The data directories are searched in
/// the XDG Base Directory order: `$XDG_DATA_HOME` (default `~/.local/share`) first, then each of `$XDG_DATA_DIRS`
/// (default `/usr/local/share:/usr/share`); the first file that exists wins. Relative entries are ignored, as the
/// specification says.
///
/// ```swift
/// let path = try InstalledManifests.locate("org.example.App", environment: ProcessInfo.processInfo.environment)
/// ```
public enum InstalledManifests {
    /// The folder under each data directory: `navsession/applications`.
    public static let subdirectory = "navsession/applications"

    /// No installed manifest for `id`; `searched` is every path looked at, in order.
    public struct NotFound: Error, Hashable, Sendable, CustomStringConvertible {
        public var id: String
        public var searched: [String]

        public var description: String {
            "no manifest is installed for the application \(id); looked for "
                + searched.joined(separator: ", ")
        }
    }

    /// The data directories, most important first: `$XDG_DATA_HOME` (else `$HOME/.local/share`), then
    /// `$XDG_DATA_DIRS` (else `/usr/local/share:/usr/share`), absolute entries only, each once.
    public static func dataDirectories(environment: [String: String]) -> [String] {
        var directories: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            directories.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(home + "/.local/share")
        }
        let system = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        directories += system.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        var seen: Set<String> = []
        return directories.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            .filter { seen.insert($0).inserted }
    }

    /// Every path where the manifest of `id` may be, in search order.
    public static func candidates(for id: String, environment: [String: String]) -> [String] {
        dataDirectories(environment: environment).map { "\($0)/\(subdirectory)/\(id).json" }
    }

    /// The path of the installed manifest of `id`: the first candidate that exists.
    ///
    /// - Throws: ``ManifestError/invalidApplicationID(key:id:reason:)`` when `id` is no application id (so it
    ///   never names a path outside the folders: no `/`, no `..`), ``NotFound`` naming every path it looked at.
    public static func locate(
        _ id: String, environment: [String: String], exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) throws -> String {
        try ApplicationID.validate(id, key: "--name")
        let paths = candidates(for: id, environment: environment)
        guard let found = paths.first(where: exists) else { throw NotFound(id: id, searched: paths) }
        return found
    }
}
