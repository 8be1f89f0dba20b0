#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The state directory, opened once and locked for as long as its owner lives.
///
/// Every file is opened relative to the directory's descriptor (`openat`), never through a symbolic link
/// (`O_NOFOLLOW`), so neither a link planted at a file's name nor a directory swapped in above it can send a
/// write elsewhere. An exclusive `flock` on `lock` makes the process the directory's one writer: a second
/// daemon (another bus name, a unit plus a hand-started one) is refused, naming the holder's pid, which the
/// lock file holds. A directory that is not the user's, or that others may write to, is refused.
final class StateDirectory {
    /// The lock file's name.
    static let lockFileName = "lock"

    let path: String
    /// `path` as a C string, made once: ``loss()`` runs before every journal line.
    private let cPath: [CChar]
    /// The directory's descriptor (`O_DIRECTORY | O_NOFOLLOW`).
    let fd: Int32
    /// The directory's identity when opened: a `stat` of `path` that differs means it was deleted or replaced.
    private let device: UInt64
    private let inode: UInt64
    private var lockFD: Int32 = -1

    /// Opens `path` (creating it and its parents, mode 0700, if missing), checks who owns it and who may
    /// write to it, and takes its lock.
    /// - Throws: ``SessionError/storageFailed(_:)`` (cannot create or open), ``SessionError/unsafeStateDirectory(_:)``,
    ///   ``SessionError/stateDirectoryLocked(path:holder:)``.
    init(path: String) throws(SessionError) {
        self.path = path
        cPath = Array(path.utf8CString)
        do {
            try FileIO.makeDirectory(path)
        } catch {
            throw .storageFailed(error.message)
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            // O_NOFOLLOW | O_DIRECTORY on a link says ENOTDIR; say what it is.
            var link = stat()
            if errno == ENOTDIR, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK { errno = ELOOP }
            throw .storageFailed(FileIO.failure("cannot open the state directory", path).message)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = FileIO.failure("cannot inspect the state directory", path)
            close(fd)
            throw .storageFailed(failure.message)
        }
        self.fd = fd
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        // From here deinit closes the descriptors.
        if let problem = Self.unsafety(of: info) {
            throw .unsafeStateDirectory("\(path) \(problem)")
        }
        try lock()
    }

    deinit {
        if lockFD >= 0 { close(lockFD) }
        close(fd)
    }

    /// Why a directory with these attributes must not hold a session, or nil: the user must own it, and
    /// nobody else may write to it (they could plant or replace the files the daemon reads back).
    static func unsafety(of info: stat) -> String? {
        let user = geteuid()
        if info.st_uid != user {
            return "is owned by uid \(info.st_uid), not by this user (uid \(user))"
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            return "is writable by its group or by others (mode \(String(mode, radix: 8))); run chmod 700 on it"
        }
        return nil
    }

    /// Whether this process holds the directory's lock.
    var isLocked: Bool { lockFD >= 0 }

    /// Takes the exclusive lock without waiting and records this process's pid in the lock file.
    func lock() throws(SessionError) {
        guard lockFD < 0 else { return }
        let lockFD = openat(fd, Self.lockFileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else {
            throw .storageFailed(FileIO.failure("cannot open", path + "/" + Self.lockFileName).message)
        }
        guard Self.tryLock(lockFD) else {
            let code = errno
            let holder = Self.holder(in: lockFD)
            close(lockFD)
            guard code == EWOULDBLOCK else {
                errno = code
                throw .storageFailed(FileIO.failure("cannot lock", path + "/" + Self.lockFileName).message)
            }
            throw .stateDirectoryLocked(path: path, holder: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(lockFD, 0) == 0 { _ = try? FileIO.writeAll(lockFD, pid, path: Self.lockFileName) }
        self.lockFD = lockFD
    }

    /// Gives the lock up (as the process's exit would), for another process, or another store of this one.
    func unlock() {
        guard lockFD >= 0 else { return }
        close(lockFD)
        lockFD = -1
    }

    /// `flock(LOCK_EX | LOCK_NB)`, retried for up to half a second while the lock file names this very process.
    ///
    /// A lock this process gave up can outlive its `close` for a moment: a child being spawned meanwhile holds a
    /// copy of every descriptor until it executes its program (`O_CLOEXEC` closes them only then), and a
    /// `flock` belongs to the open file, not to one descriptor. Another process's lock is refused at once.
    private static func tryLock(_ fd: Int32) -> Bool {
        var attempts = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK, holder(in: fd) == getpid(), attempts < 500 else {
                errno = code
                return false
            }
            attempts += 1
            usleep(1000)
        }
        return true
    }

    /// The pid the lock's holder wrote into the lock file, if it is there.
    private static func holder(in fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        // The number alone, whitespace around it ignored (what trimming whitespace and newlines did).
        let words = String(decoding: buffer[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        return words.count == 1 ? Int32(words[0]) : nil
    }

    /// Why the directory at ``path`` is no longer the one opened (deleted, or replaced by another), or nil.
    /// One `lstat`: cheap enough to ask before every journal write.
    func loss() -> String? {
        var info = stat()
        guard lstat(cPath, &info) == 0 else { return "was deleted" }
        guard UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return "was replaced" }
        return nil
    }

    // MARK: Files, relative to the directory

    /// Whether anything (a file, a directory, a dangling or looping symlink) has this name.
    func exists(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    func read(_ name: String) throws(FileIO.Failure) -> [UInt8] {
        let file = openat(fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 else { throw FileIO.failure("cannot open", full(name)) }
        defer { close(file) }
        return try FileIO.readAll(file, path: full(name))
    }

    /// Opens `name` for appending (created with mode 0600 if missing, emptied first when `truncating`).
    func openForAppend(_ name: String, truncating: Bool = false) throws(FileIO.Failure) -> Int32 {
        let flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (truncating ? O_TRUNC : 0)
        let file = openat(fd, name, flags, 0o600)
        guard file >= 0 else { throw FileIO.failure("cannot open", full(name)) }
        return file
    }

    /// Replaces `name` atomically: write a temporary file, fsync it, rename it over `name`, fsync the directory.
    func writeAtomically(_ bytes: [UInt8], to name: String) throws(FileIO.Failure) {
        let temporary = name + ".tmp"
        // Whatever has the temporary's name goes first (a stale file, or a link someone planted: unlink removes
        // the link, never its target); the file is then created anew.
        if unlinkat(fd, temporary, 0) != 0, errno != ENOENT { throw FileIO.failure("cannot remove", full(temporary)) }
        let file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard file >= 0 else { throw FileIO.failure("cannot create", full(temporary)) }
        do throws(FileIO.Failure) {
            try FileIO.writeAll(file, bytes, path: full(temporary))
            try FileIO.sync(file, path: full(temporary))
        } catch {
            close(file)
            unlinkat(fd, temporary, 0)
            throw error
        }
        close(file)
        try move(temporary, to: name)
    }

    /// Truncates `name` to `length` bytes.
    func truncate(_ name: String, to length: Int) throws(FileIO.Failure) {
        let file = openat(fd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 else { throw FileIO.failure("cannot open", full(name)) }
        defer { close(file) }
        guard ftruncate(file, off_t(length)) == 0 else { throw FileIO.failure("cannot truncate", full(name)) }
    }

    /// Renames `name` to `target` within the directory and makes the rename durable (best effort).
    func move(_ name: String, to target: String) throws(FileIO.Failure) {
        guard renameat(fd, name, fd, target) == 0 else {
            throw FileIO.failure("cannot rename \(full(name)) to", full(target))
        }
        _ = fsync(fd)
    }

    /// `path/name`, for messages.
    func full(_ name: String) -> String { path + "/" + name }
}
