import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX calls persistence needs, with errno turned into messages. Blocking.
///
/// No call here follows a symbolic link at the file it opens (`O_NOFOLLOW`), and a temporary file is created
/// anew (`O_EXCL`, after removing whatever has its name): a link planted at `state.json`, `state.json.tmp` or
/// `journal.jsonl` is refused, or removed, and never written through to its target.
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
        let code = errno
        if code == ELOOP {
            return Failure(message: "\(what) \(path): it is a symbolic link, which is never followed", code: code)
        }
        return Failure(message: "\(what) \(path): \(String(cString: strerror(code)))", code: code)
    }

    /// Whether anything (a file, a directory, a dangling or looping symlink) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates `path` and its parents (mode 0700).
    static func makeDirectory(_ path: String) throws(Failure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw failure("cannot create directory", current) }
        }
    }

    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw failure("cannot open", path) }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read", path)
            }
            if count == 0 { break }
            result.append(contentsOf: buffer[..<count])
        }
        return result
    }

    /// Writes all bytes to `fd`, retrying on EINTR and short writes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write", path)
            }
            offset += count
        }
    }

    /// Opens `path` for appending (created with mode 0600 if missing, emptied first when `truncating`).
    static func openForAppend(_ path: String, truncating: Bool = false) throws(Failure) -> Int32 {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (truncating ? O_TRUNC : 0), 0o600)
        guard fd >= 0 else { throw failure("cannot open", path) }
        return fd
    }

    static func sync(_ fd: Int32, path: String) throws(Failure) {
        guard fsync(fd) == 0 else { throw failure("cannot fsync", path) }
    }

    /// Replaces `path` atomically: write a temporary file, fsync it, rename it over `path`, fsync the directory.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = path + ".tmp"
        // Whatever has the temporary's name goes first (a stale file, or a link someone planted: unlink removes
        // the link, never its target); the file is then created anew.
        if unlink(temporary) != 0, errno != ENOENT { throw failure("cannot remove", temporary) }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot create", temporary) }
        do throws(Failure) {
            try writeAll(fd, bytes, path: temporary)
            try sync(fd, path: temporary)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to", path) }
        syncDirectory(of: path)
    }

    /// Truncates `path` to `length` bytes.
    static func truncate(_ path: String, to length: Int) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw failure("cannot open", path) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(length)) == 0 else { throw failure("cannot truncate", path) }
    }

    static func move(_ from: String, to: String) throws(Failure) {
        guard rename(from, to) == 0 else { throw failure("cannot rename \(from) to", to) }
        syncDirectory(of: to)
    }

    /// Best effort: makes a rename durable.
    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
