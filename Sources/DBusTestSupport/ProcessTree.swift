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

    /// The parent of `pid` (`/proc/PID/stat`'s fourth field, after the command name in parentheses, which may
    /// itself hold spaces and parentheses), or nil when the process is gone.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }
}
