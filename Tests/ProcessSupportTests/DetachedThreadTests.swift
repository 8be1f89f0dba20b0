import ProcessSupport
import Glibc
import Testing

/// ``DetachedThread``: the body runs on a new, named OS thread.
struct DetachedThreadTests {
    @Test func theBodyRunsOnANewThreadCarryingItsName() async {
        let callerThread = UInt(pthread_self())
        let (thread, name) = await withCheckedContinuation { continuation in
            let started = DetachedThread.start(name: "detached thread test") {
                continuation.resume(returning: (UInt(pthread_self()), Self.currentThreadName()))
            }
            #expect(started)
        }
        #expect(thread != callerThread)
        // The kernel keeps 15 bytes of a thread's name.
        #expect(name == "detached thread")
    }

    /// The calling thread's name as the kernel shows it (`/proc/thread-self/comm`, without the newline).
    private static func currentThreadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)).filter { $0 != 10 }, as: UTF8.self)
    }
}
