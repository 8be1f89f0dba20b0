import Foundation

/// Unbuffered writes to stdout, so `watch` lines reach a pipe as they happen.
enum StandardOutput {
    /// Writes `text` and a newline (none when `text` already ends with one).
    static func line(_ text: String) {
        let terminated = text.hasSuffix("\n") ? text : text + "\n"
        FileHandle.standardOutput.write(Data(terminated.utf8))
    }
}
