import Foundation
import Glibc
import DBusTestSupport

/// Open file descriptors of several kinds to attach to calls (type `h`): `/dev/null`, both ends of a pipe,
/// a socket of a socketpair, a directory and a regular file. libdbus sends duplicates, so these stay open
/// (and unchanged) for the whole run; the daemon should close every copy it receives.
final class DescriptorPool {
    private(set) var descriptors: [Int32] = []
    private var file: String?

    init() {
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        if devNull >= 0 { descriptors.append(devNull) }
        var pipeEnds: [Int32] = [-1, -1]
        if pipe(&pipeEnds) == 0 {
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            descriptors += pipeEnds
        }
        var pair: [Int32] = [-1, -1]
        if socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 {
            descriptors.append(pair[0])
            close(pair[1])
        }
        let directory = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { descriptors.append(directory) }
        let path = NSTemporaryDirectory() + "navsession-fuzz-fd-\(getpid())"
        let regular = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if regular >= 0 {
            descriptors.append(regular)
            file = path
        }
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
        if let file { unlink(file) }
    }

    /// One of the descriptors (or 0, standard input, when none could be opened).
    func any(_ random: inout SplitMix64) -> Int32 {
        random.pick(descriptors, or: 0)
    }
}
