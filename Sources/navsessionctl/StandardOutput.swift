import Glibc
import ProcessSupport

/// Unbuffered writes to stdout, so `watch` lines reach a pipe as they happen.
enum StandardOutput {
    /// Writes `text` and a newline (none when `text` already ends with one).
    static func line(_ text: String) {
        StandardStream.write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }
}

/// Unbuffered writes to stderr.
enum StandardError {
    /// Writes `text` as it is.
    static func write(_ text: String) {
        StandardStream.write(text, to: STDERR_FILENO)
    }
}

/// Reading whole files and pipes (writing: ProcessSupport).
extension StandardStream {
    /// Everything readable from `fd` until end of file.
    /// - Throws: ``SystemError`` when a read fails or `fd` holds more than ``readLimit`` bytes.
    static func readAll(from fd: Int32) throws(SystemError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 {
                guard result.count + count <= readLimit else {
                    throw SystemError(errno: EFBIG, detail: "more than the \(readLimit >> 20) MiB navsessionctl reads")
                }
                result.append(contentsOf: chunk.prefix(count))
            } else if count == 0 {
                return result
            } else if errno != EINTR {
                throw SystemError(errno: errno)
            }
        }
    }

    /// The most ``readAll(from:)`` reads: the largest message the bus carries (32 MiB), so no input the daemon
    /// could accept is refused, and `/dev/zero` or an endless pipe ends in an error instead of exhausting memory.
    static let readLimit = 32 << 20

    /// The contents of the file at `path`.
    /// - Throws: ``SystemError`` when it cannot be opened or read.
    static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(errno: errno) }
        defer { close(fd) }
        return try readAll(from: fd)
    }
}

/// A failed system call, described as strerror(3) describes its errno.
struct SystemError: Error, CustomStringConvertible {
    let errno: Int32
    /// Said instead of strerror(3)'s text when the failure is ours, not the system call's.
    var detail: String?
    var description: String { detail ?? String(cString: strerror(errno)) }

    init(errno: Int32, detail: String? = nil) {
        self.errno = errno
        self.detail = detail
    }
}
