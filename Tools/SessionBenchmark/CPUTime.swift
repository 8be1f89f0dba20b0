import Foundation

/// CPU time and state of another process.
///
/// CPU time comes from the process's CPU-time clock (`clock_getcpuclockid(3)`): the scheduler's exact run
/// time of all its threads, in nanoseconds. `/proc/<pid>/stat`'s utime+stime, the fallback, are charged
/// a whole clock tick (10 ms) to whichever task a tick interrupts, so a service that runs 100 µs per call
/// is sampled rather than measured; the clock needs no sampling and no repetition to be exact.
enum CPUTime {
    /// Clock ticks per second that /proc counts in (USER_HZ, normally 100).
    static let ticksPerSecond: Double = {
        let value = sysconf(Int32(_SC_CLK_TCK))
        return value > 0 ? Double(value) : 100
    }()

    /// What ``microseconds(of:)`` reads, for the report's header.
    static var source: String {
        var clock = clockid_t()
        return clock_getcpuclockid(getpid(), &clock) == 0
            ? "the process CPU clock (clock_getcpuclockid, ns)"
            : "/proc/<pid>/stat at \(Int(ticksPerSecond)) ticks/s"
    }

    /// CPU time `pid` has used so far, all threads, in µs.
    static func microseconds(of pid: pid_t) throws -> Double {
        var clock = clockid_t()
        var now = timespec()
        if clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &now) == 0 {
            return Double(now.tv_sec) * 1_000_000 + Double(now.tv_nsec) / 1_000
        }
        return Double(try ticks(of: pid)) * 1_000_000 / ticksPerSecond
    }

    /// utime + stime of `pid`, summed over all its threads, in clock ticks.
    static func ticks(of pid: pid_t) throws -> Int {
        guard let fields = statFields(of: pid) else {
            throw BenchError.failed("cannot read /proc/\(pid)/stat: the process is gone")
        }
        // fields[0] is field 3 (state), so utime (field 14) and stime (field 15) are at 11 and 12.
        guard fields.count > 12, let utime = Int(fields[11]), let stime = Int(fields[12]) else {
            throw BenchError.failed("unexpected format of /proc/\(pid)/stat")
        }
        return utime + stime
    }

    /// True while `pid` exists and is not a zombie (state Z).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let state = statFields(of: pid)?.first else { return false }
        return state != "Z"
    }

    /// The fields of /proc/<pid>/stat from field 3 (state) on. The command name (field 2) is in
    /// parentheses and may contain spaces, so splitting starts after the last ')'.
    private static func statFields(of pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }
}
