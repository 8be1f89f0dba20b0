import Foundation

/// The package's built executables, for the tests and tools that run them.
public enum BuiltProduct {
    /// The places `name` is looked for: next to the running binary (the test bundle or the tool, which
    /// `swift build` puts beside the package's executables), then this package's `.build/debug`.
    public static func candidates(_ name: String) -> [URL] {
        let running = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        return [
            running.deletingLastPathComponent().appendingPathComponent(name),
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/\(name)"),
        ]
    }

    /// The executable `name` (`navsessiond`, `navsessionctl`, `navsession-fuzz`, …), or nil when it is not built.
    public static func url(_ name: String) -> URL? {
        candidates(name).first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// ``url(_:)``, or an error that says where it looked.
    public static func require(_ name: String) throws -> URL {
        guard let url = url(name) else { throw NotBuilt(name: name, looked: candidates(name).map(\.path)) }
        return url
    }

    /// An executable that is not built.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// Its name.
        public var name: String
        /// Where it was looked for.
        public var looked: [String]
        public var description: String {
            "\(name) is not built (looked at \(looked.joined(separator: ", "))); run swift build --build-tests"
        }
    }
}
