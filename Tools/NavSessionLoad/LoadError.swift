import Foundation

/// A failure that ends the run (setup, a process that never came up, a bounded wait that ran out).
struct LoadError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Progress and diagnostics go to stderr, so stdout carries only the report.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("navsession-load: \(message)\n".utf8))
}
