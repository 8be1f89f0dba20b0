#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// Tells whether anything that could take the journal away from where a restart reads it happened since the
/// last look, with one `read(2)` of an inotify descriptor that finds nothing instead of a lookup of the journal's
/// path before every journal line.
///
/// The kernel queues an event within the system call that causes it: the state directory (or any directory above
/// it) moved or deleted, or a file of the journal's name removed, renamed, or renamed over (the state directory's
/// other files, written by the store itself, are read past). So a look that finds nothing proves that since the
/// watch was set nothing was done that ``SessionStore/lossOfFiles()``'s path lookup could find; any event for the
/// journal (or a dropped queue, or a watch the kernel removed) sends the store back to that lookup, which says what
/// happened.
///
/// Every watch of a process shares one inotify instance (``InotifyHub``): a user may have only 128 of them
/// (`fs.inotify.max_user_instances`), and other programs (the bus, GLib's file monitors) need theirs.
///
/// No watch is made (`init` returns nil, and the store looks the path up before each line as before) where it
/// could not vouch for the path: a relative path, a symbolic link on the way (replacing a link moves nothing the
/// watch sees), or no inotify (unsupported, or the user's limit of instances or watches reached).
final class JournalWatch {
    private let hub: InotifyHub
    private let id: Int
    private let watches: [Int32]

    /// Watches `directory` (absolute, no symbolic link in it) and every directory above it; nil where it cannot.
    init?(directory: String, fileName: String, hub: InotifyHub = .shared) {
        guard directory.hasPrefix("/") else { return nil }
        var directories: [String] = []
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            guard lstat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            directories.append(prefix)
        }
        guard !directories.isEmpty, let (id, watches) = hub.subscribe(directories, journal: Array(fileName.utf8))
        else { return nil }
        self.hub = hub
        self.id = id
        self.watches = watches
    }

    deinit {
        hub.unsubscribe(id, watches: watches)
    }

    /// True when nothing that concerns the journal was queued since the last call: one `read(2)` returning
    /// `EAGAIN` in the usual case.
    func undisturbed() -> Bool {
        hub.undisturbed(id)
    }
}

/// One inotify instance for every ``JournalWatch`` of the process, its events handed to the watches they concern.
///
/// Watches of the same directory share the kernel's watch (and its descriptor number); a watch's events are the
/// union of what its subscribers asked (`IN_MASK_ADD`), and each subscriber reads only what concerns it.
final class InotifyHub: Sendable {
    static let shared = InotifyHub()

    private struct Subscriber {
        /// The watches of the directories above the state directory, then the state directory's.
        var watches: [Int32]
        var journal: [UInt8]
        var disturbed = false
        /// One of its watches is gone (the kernel removed it): it cannot vouch again, every look is disturbed.
        var lost = false
        var directory: Int32 { watches[watches.count - 1] }
    }

    private struct State {
        var descriptor: Int32 = -1
        var nextID = 0
        var subscribers: [Int: Subscriber] = [:]
        /// How many subscribers use each watch: the last one to go removes it.
        var users: [Int32: Int] = [:]
        /// Set when the descriptor failed: every look then reports a disturbance.
        var broken = false
        /// Where read(2) puts the events: allocated once.
        var buffer = [UInt8](repeating: 0, count: 4096)
    }

    private let state = Mutex(State())

    /// Events on a state directory that can take the journal's name away or give it to another file.
    private static let directoryEvents = UInt32(IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) | selfEvents
    /// Events on a directory's own move or deletion: all that matters of the directories above.
    private static let selfEvents = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)

    /// Watches `directories` (the state directory last, the ones above it before) for a journal named `journal`;
    /// returns the subscriber's number and its watches, or nil when inotify cannot watch them.
    fileprivate func subscribe(_ directories: [String], journal: [UInt8]) -> (Int, [Int32])? {
        state.withLock { state in
            if state.descriptor < 0 {
                state.descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
                guard state.descriptor >= 0 else { return nil }
            }
            var watches: [Int32] = []
            for (index, path) in directories.enumerated() {
                let events = index == directories.count - 1 ? Self.directoryEvents : Self.selfEvents
                let watch = inotify_add_watch(state.descriptor, path, events | UInt32(IN_ONLYDIR) | UInt32(IN_MASK_ADD))
                guard watch >= 0 else {
                    Self.release(watches, in: &state)
                    return nil
                }
                watches.append(watch)
                state.users[watch, default: 0] += 1
            }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(watches: watches, journal: journal)
            return (id, watches)
        }
    }

    fileprivate func unsubscribe(_ id: Int, watches: [Int32]) {
        state.withLock { state in
            state.subscribers[id] = nil
            Self.release(watches, in: &state)
        }
    }

    private static func release(_ watches: [Int32], in state: inout State) {
        for watch in watches {
            let left = (state.users[watch] ?? 1) - 1
            if left > 0 {
                state.users[watch] = left
            } else {
                state.users[watch] = nil
                inotify_rm_watch(state.descriptor, watch)
            }
        }
    }

    /// Reads what is queued, hands it to the subscribers it concerns, and tells whether subscriber `id` was
    /// disturbed since its last look (and forgets that it was).
    fileprivate func undisturbed(_ id: Int) -> Bool {
        state.withLock { state in
            while true {
                let count = state.buffer.withUnsafeMutableBytes { read(state.descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    // EAGAIN: the queue is empty. Any other failure: the descriptor cannot vouch for anything.
                    if count < 0 && errno != EAGAIN { state.broken = true }
                    break
                }
                Self.dispatch(count, in: &state)
            }
            guard let subscriber = state.subscribers[id] else { return false }
            if subscriber.disturbed { state.subscribers[id]?.disturbed = false }
            return !(subscriber.disturbed || subscriber.lost || state.broken)
        }
    }

    /// Marks the subscribers the `count` bytes of events in the buffer concern.
    private static func dispatch(_ count: Int, in state: inout State) {
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + header <= count {
            let (watch, mask, length) = state.buffer.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                 raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                 Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            let nameStart = offset + header
            let nameEnd = min(nameStart + length, count)
            offset = nameEnd
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // Events were dropped: every subscriber looks its path up once.
                for id in state.subscribers.keys { state.subscribers[id]?.disturbed = true }
                continue
            }
            if mask & UInt32(IN_IGNORED) != 0 {
                // The kernel removed the watch (its directory deleted, its file system unmounted): whoever used it
                // can no longer be told, and looks its path up before every line until its journal is opened again.
                state.users[watch] = nil
                for (id, subscriber) in state.subscribers where subscriber.watches.contains(watch) {
                    state.subscribers[id]?.lost = true
                }
                continue
            }
            // The name is NUL-padded; only a state directory's children have one.
            let name = state.buffer[nameStart..<nameEnd].prefix { $0 != 0 }
            for (id, subscriber) in state.subscribers where !subscriber.disturbed && subscriber.watches.contains(watch) {
                // A directory on the path moved or went, or the journal's name was taken away or given to another file.
                if mask & selfEvents != 0 || (watch == subscriber.directory && name.elementsEqual(subscriber.journal)) {
                    state.subscribers[id]?.disturbed = true
                }
            }
        }
    }
}
