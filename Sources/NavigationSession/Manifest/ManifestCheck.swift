#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One problem of a manifest file, placed in it: `FILE:LINE:COLUMN: error: KEY: WHAT`, the form compilers use,
/// so editors and CI logs jump to it (`navsessiond --check-manifest FILE`).
///
/// The line and column are those of the offending value; for an unknown key, of the key itself; for a missing
/// key, of the object that lacks it. Columns count UTF-8 bytes from 1. A file that cannot be read has neither.
public struct ManifestDiagnostic: Error, Sendable, CustomStringConvertible {
    /// The file as it was named.
    public var file: String
    /// 1-based line, or `nil` when the problem has no place in the text (the file is unreadable or too large).
    public var line: Int?
    /// 1-based column in UTF-8 bytes, with `line`.
    public var column: Int?
    /// The error the manifest was rejected with.
    public var error: ManifestError

    /// Whether the file could not be read at all (as opposed to being read and rejected).
    public var isUnreadable: Bool {
        if case .unreadable = error { return true }
        return false
    }

    /// `FILE:LINE:COLUMN: error: KEY: WHAT` (`FILE: error: WHAT` without a place; no `KEY` when it is the place).
    public var description: String {
        let place = line.map { line in ":\(line):\(column ?? 1)" } ?? ""
        let keyed: Bool
        switch error {
        case .unreadable, .malformedJSON, .duplicateKey, .tooLarge: keyed = false
        default: keyed = error.key != "(root)" && !error.key.hasPrefix("line ")
        }
        return "\(file)\(place): error: " + (keyed ? "\(error.key): " : "") + error.reason
    }
}

extension Manifest {
    /// Reads and validates the manifest at `path` as ``init(contentsOfFile:)`` does, and places the first problem
    /// in the text; `nil` when the manifest is valid. Starts nothing and writes nothing.
    public static func check(file path: String) -> ManifestDiagnostic? {
        let text: String
        do {
            text = try readText(path)
            _ = try Manifest(json: text)
            return nil
        } catch {
            return diagnose(error, in: textIfRead(path), file: path)
        }
    }

    /// ``check(file:)`` for text already read (`file` names it in the diagnostic).
    public static func check(json text: String, file: String) -> ManifestDiagnostic? {
        do {
            _ = try Manifest(json: text)
            return nil
        } catch {
            return diagnose(error, in: text, file: file)
        }
    }

    private static func textIfRead(_ path: String) -> String? { try? readText(path) }

    private static func diagnose(_ error: ManifestError, in text: String?, file: String) -> ManifestDiagnostic {
        var diagnostic = ManifestDiagnostic(file: file, line: nil, column: nil, error: error)
        switch error {
        case .unreadable:
            return diagnostic
        case .tooLarge(let key, _, _) where key == file:
            return diagnostic
        case .malformedJSON(let line, let column, _), .duplicateKey(let line, let column, _):
            diagnostic.line = line
            diagnostic.column = column
            return diagnostic
        default:
            break
        }
        if let (line, column) = Self.lineAndColumn(in: error.key) {
            diagnostic.line = line
            diagnostic.column = column
        } else if let text, let location = JSONSyntax.locate(error.key, in: text) {
            let atKey: Bool
            switch error {
            case .invalidValue(_, let detail): atKey = detail.hasPrefix("unknown key")
            case .unknownParameter: atKey = true
            default: atKey = false
            }
            let place = atKey && location.complete ? location.key ?? location.value : location.value
            diagnostic.line = place.line
            diagnostic.column = place.column
        } else {
            diagnostic.line = 1
            diagnostic.column = 1
        }
        return diagnostic
    }

    /// `line L, column C` (the place the syntax scan gives names and texts over a limit) as numbers.
    private static func lineAndColumn(in key: String) -> (Int, Int)? {
        guard key.hasPrefix("line ") else { return nil }
        let numbers = key.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).map { Int($0) }
        guard numbers.count == 2, let line = numbers[0], let column = numbers[1] else { return nil }
        return (line, column)
    }
}
