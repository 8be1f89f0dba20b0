import Foundation

/// The processes below one process, read from `/proc`.
///
/// A test that times a tool out must stop what the tool started too: a background job of a shell script (a
/// daemon started with `&`) outlives the shell, is adopted by init and keeps the descriptors it inherited,
/// and Foundation's `Process` hears of the tool's exit only when the last of those closes.
public enum ProcessTree {
    /// Every living descendant of `pid` (children, their children, …), listed before `pid`'s orphans are
    /// adopted elsewhere, which is why a caller lists them before it kills `pid`.
    public static func descendants(of pid: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let child = pid_t(entry), let parent = parent(of: child) else { continue }
            children[parent, default: []].append(child)
        }
        var found: [pid_t] = []
        var pending = children[pid] ?? []
        while let next = pending.popLast() {
            found.append(next)
            pending += children[next] ?? []
        }
        return found
    }

    /// Stops `pid` (through `stop`, which sends it `SIGSTOP`) and every descendant, a generation at a time until a
    /// listing finds none running, so none can start another; returns the descendants (stopped: a `SIGKILL` ends
    /// them). A process forking as it is stopped finishes the fork only when continued.
    public static func freeze(_ pid: pid_t, stop: () -> Void) -> [pid_t] {
        stop()
        var stopped: Set<pid_t> = []
        var order: [pid_t] = []
        while true {
            let found = descendants(of: pid).filter { !stopped.contains($0) }
            if found.isEmpty { return order }
            for child in found {
                kill(child, SIGSTOP)
                stopped.insert(child)
                order.append(child)
            }
        }
    }

    /// Whether `pid` exists and is not a zombie (a killed orphan stays one until init reaps it).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let fields = statFields(of: pid) else { return false }
        return fields.first != "Z"
    }

    /// The parent of `pid`, or nil when the process is gone.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let fields = statFields(of: pid), fields.count > 1 else { return nil }
        return pid_t(fields[1])
    }

    /// `/proc/PID/stat`'s fields after the command name (state, parent, …): the name is in parentheses and
    /// may itself hold spaces and parentheses, so the fields start after the last `)`.
    private static func statFields(of pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }
}
