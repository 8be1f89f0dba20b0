import Foundation

/// The error names the daemon may answer with: those documented in Docs/dbus-api.md and in the doc comments
/// of dbus/*.xml, plus the standard ones any service may send. `org.freedesktop.DBus.Error.Failed` is never
/// in the set: it means an error escaped unmapped.
struct ErrorCatalog: Sendable {
    static let standardPrefix = "org.freedesktop.DBus.Error."
    static let ownPrefix = "org.navsession.Error."
    static let failed = standardPrefix + "Failed"

    /// Standard errors a service may send (the brief's list); a bare name in the docs that is one of these
    /// means the standard error.
    static let standard: Set<String> = [
        "InvalidArgs", "UnknownMethod", "UnknownObject", "UnknownInterface", "UnknownProperty", "PropertyReadOnly",
        "LimitsExceeded", "AccessDenied", "NotSupported",
    ]

    let names: Set<String>

    func allows(_ name: String) -> Bool { names.contains(name) }

    init(names: Set<String>) {
        var names = names.union(Self.standard.map { Self.standardPrefix + $0 })
        names.remove(Self.failed)
        self.names = names
    }

    /// Reads `Docs/dbus-api.md` and `dbus/*.xml` under `repository`.
    /// - Throws: when the API document cannot be read (a catalog without it would flag every error).
    static func load(repository: URL) throws -> ErrorCatalog {
        let document = try String(contentsOf: repository.appendingPathComponent("Docs/dbus-api.md"), encoding: .utf8)
        var names = fromMarkdown(document)
        let directory = repository.appendingPathComponent("dbus")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".xml") {
            if let xml = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) {
                names.formUnion(fromInterfaceComments(xml))
            }
        }
        return ErrorCatalog(names: names)
    }

    /// Full names anywhere, `Error.X` (ours), and bare `` `X` `` in an "Errors" column or the "Errors" section.
    static func fromMarkdown(_ text: String) -> Set<String> {
        var names = qualified(in: text)
        var errorColumns: Set<Int> = []
        var inErrorsSection = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") {
                inErrorsSection = line.trimmingCharacters(in: CharacterSet(charactersIn: "# ")).lowercased() == "errors"
                errorColumns = []
                continue
            }
            guard line.hasPrefix("|") else {
                errorColumns = []
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map(String.init)
            if cells.allSatisfy({ $0.trimmingCharacters(in: CharacterSet(charactersIn: " -:")).isEmpty }) { continue }
            if errorColumns.isEmpty, cells.contains(where: { $0.lowercased().contains("error") }), !line.contains("`") {
                errorColumns = Set(cells.indices.filter { cells[$0].lowercased().contains("error") })
                continue
            }
            var errorCells = errorColumns.compactMap { cells.indices.contains($0) ? cells[$0] : nil }
            if inErrorsSection, let first = cells.first { errorCells.append(first) }
            for cell in errorCells {
                names.formUnion(matches(of: "`([A-Z][A-Za-z0-9]+)`", in: cell).map(bare))
            }
        }
        return names
    }

    /// In each XML comment, the CamelCase words from the first mention of errors to the comment's end.
    static func fromInterfaceComments(_ xml: String) -> Set<String> {
        var names = qualified(in: xml)
        for comment in matches(of: "<!--([\\s\\S]*?)-->", in: xml) {
            guard let start = comment.range(of: "error", options: .caseInsensitive) else { continue }
            let tail = String(comment[start.lowerBound...])
            names.formUnion(matches(of: "(?<![A-Za-z0-9.])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?![A-Za-z0-9])", in: tail).map(bare))
        }
        return names
    }

    /// `org.navsession.Error.X` and `org.freedesktop.DBus.Error.X` as written, and `Error.X` as ours.
    private static func qualified(in text: String) -> Set<String> {
        var names = Set(matches(of: "(org\\.(?:navsession|freedesktop\\.DBus)\\.Error\\.[A-Za-z0-9_]+)", in: text))
        names.formUnion(matches(of: "(?<![A-Za-z0-9.])Error\\.([A-Z][A-Za-z0-9]+)", in: text).map { ownPrefix + $0 })
        return names
    }

    /// A bare documented name: a standard one, else one of ours.
    private static func bare(_ name: String) -> String {
        standard.contains(name) ? standardPrefix + name : ownPrefix + name
    }

    /// The first capture group of every match.
    private static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
