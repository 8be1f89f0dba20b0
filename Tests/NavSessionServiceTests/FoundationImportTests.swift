import DBusTestSupport
import Foundation
import Testing

/// navsessiond and navsessionctl link FoundationEssentials only: full Foundation brings ICU, ≈ 40 MB of each
/// binary and 5 MB of the daemon's RSS (Docs/performance.md, "Installed size and memory"). This catches an
/// `import Foundation` in a product module at test time; `scripts/check-install` checks the linked binaries.
@Suite struct FoundationImportTests {
    /// The modules navsessiond or navsessionctl link (NavSessionTesting, a test-support product, is not one).
    static let productModules = [
        "DBusKit", "NavigationCore", "NavigationRouting", "NavigationSession", "NavSessionService",
        "NavSessionInterface", "NavSessionClient", "ProcessSupport", "navsessiond", "navsessionctl",
    ]

    /// `file:line` of every import of full Foundation that is not the `#else` of
    /// `#if canImport(FoundationEssentials) import FoundationEssentials`.
    static func fullFoundationImports(in module: String) throws -> [String] {
        let directory = PrivateBus.repositoryRoot.appendingPathComponent("Sources/\(module)")
        guard let files = FileManager.default.enumerator(atPath: directory.path) else { return ["\(module): no directory"] }
        var found: [String] = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line.hasSuffix("import Foundation") {
                let guarded = index >= 3 && lines[index - 1] == "#else"
                    && lines[index - 2].hasSuffix("import FoundationEssentials")
                    && lines[index - 3] == "#if canImport(FoundationEssentials)"
                if !guarded { found.append("Sources/\(module)/\(file):\(index + 1)") }
            }
        }
        return found
    }

    @Test(arguments: productModules) func productModuleImportsFoundationEssentialsOnly(module: String) throws {
        let imports = try Self.fullFoundationImports(in: module)
        #expect(imports.isEmpty, "import FoundationEssentials instead (#if canImport(FoundationEssentials)): \(imports)")
    }
}
