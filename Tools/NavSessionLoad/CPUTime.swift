import Foundation

/// CPU time of another process, from /proc/<pid>/stat (utime + stime, all threads).
enum CPUTime {
    /// Clock ticks per second that /proc counts in (USER_HZ, normally 100).
    static let ticksPerSecond: Double = {
        let value = sysconf(Int32(_SC_CLK_TCK))
        return value > 0 ? Double(value) : 100
    }()

    static func microseconds(_ ticks: Int) -> Double { Double(ticks) * 1_000_000 / ticksPerSecond }

    /// utime + stime of `pid` in clock ticks, or nil when the process is gone.
    static func ticks(of pid: pid_t) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name: field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let utime = Int(fields[11]), let stime = Int(fields[12]) else { return nil }
        return utime + stime
    }
}
