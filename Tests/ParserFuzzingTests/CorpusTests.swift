import Foundation
import ParserFuzzing
import Testing

/// Runs every seed input (`Fuzz/corpus/<harness>/`) and every saved crash input
/// (`Fuzz/regressions/<harness>/`) through the fuzz harnesses, in a normal debug `swift test`.
@Suite struct CorpusTests {
    /// The repository's `Fuzz` directory.
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files under `Fuzz/<kind>/<harness>/`, sorted by name (none when the directory is absent).
    static func inputs(_ kind: String, _ harness: Harness) -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(harness.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    static func runAll(_ files: [URL], _ harness: Harness) throws {
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            do {
                try harness.run(bytes)
            } catch {
                Issue.record("\(harness.rawValue)/\(file.lastPathComponent): \(error)")
            }
        }
    }

    @Test("every seed input keeps its harness's invariants", arguments: Harness.allCases)
    func seedCorpus(_ harness: Harness) throws {
        let files = Self.inputs("corpus", harness)
        #expect(!files.isEmpty, "Fuzz/corpus/\(harness.rawValue) has no seeds")
        try Self.runAll(files, harness)
    }

    @Test("every saved crash input stays fixed", arguments: Harness.allCases)
    func savedCrashes(_ harness: Harness) throws {
        try Self.runAll(Self.inputs("regressions", harness), harness)
    }

    @Test("every corpus and regression directory names a harness")
    func directoriesNameHarnesses() throws {
        for kind in ["corpus", "regressions"] {
            let directory = Self.fuzzDirectory.appendingPathComponent(kind)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where !name.hasPrefix(".") {
                #expect(Harness(rawValue: name) != nil, "Fuzz/\(kind)/\(name) is not a harness")
            }
        }
    }

    @Test("inputs over the 1 MiB limit are ignored", arguments: Harness.allCases)
    func oversizedInput(_ harness: Harness) throws {
        try harness.run([UInt8](repeating: UInt8(ascii: "["), count: Harness.maximumInputBytes + 1))
    }
}
