import FoundationEssentials
import Glibc

/// The POSIX calls persistence needs outside one directory (``StateDirectory`` holds those inside it), with
/// errno turned into messages. Blocking.
enum FileIO {
    struct Failure: Error {
        var message: String
        /// The errno of the failed call (0 when unknown).
        var code: Int32 = 0

        /// The file is there but this process may not read it, or the device failed: its content may be
        /// fine, so it must never be discarded as corrupt.
        var isUnreadable: Bool { code != 0 && code != EISDIR && code != ENOENT }
    }

    static func failure(_ what: String, _ path: String) -> Failure {
        failure(what, path, code: errno)
    }

    /// The failure of a call that set `code` (read before anything else could change `errno`).
    static func failure(_ what: String, _ path: String, code: Int32) -> Failure {
        if code == ELOOP {
            return Failure(message: "\(what) \(path): it is a symbolic link, which is never followed", code: code)
        }
        return Failure(message: "\(what) \(path): \(String(cString: strerror(code)))", code: code)
    }

    /// Creates `path` and its parents (mode 0700).
    static func makeDirectory(_ path: String) throws(Failure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw failure("cannot create directory", current) }
        }
    }

    /// Writes all bytes to `fd`, retrying on EINTR and short writes.
    ///
    /// `path` names the file in the error only, so it is built only then (the journal's path is assembled from
    /// its directory, and this runs on every change).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: @autoclosure () -> String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw failure("cannot write", path(), code: code)
            }
            offset += count
        }
    }

    /// Reads `fd` to its end, retrying on EINTR; stops after `limit` bytes when given (the caller tells
    /// "more than the limit" from a result longer than it wants).
    static func readAll(_ fd: Int32, limit: Int? = nil, path: String) throws(Failure) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while limit.map({ result.count < $0 }) ?? true {
            let wanted = min(buffer.count, limit.map { $0 - result.count } ?? buffer.count)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read", path)
            }
            if count == 0 { break }
            result.append(contentsOf: buffer[..<count])
        }
        return result
    }

    /// `path` as in ``writeAll(_:_:path:)``.
    static func sync(_ fd: Int32, path: @autoclosure () -> String) throws(Failure) {
        guard fsync(fd) == 0 else {
            let code = errno
            throw failure("cannot fsync", path(), code: code)
        }
    }
}
