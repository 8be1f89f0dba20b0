import FoundationEssentials
import Glibc

/// The one place that decides whether output is coloured.
enum TerminalColor {
    /// `--no-color` wins, then `--color`; otherwise colours only on a capable terminal: stdout is a tty,
    /// `NO_COLOR` is not set (whatever its value, even empty) and `TERM` is not `dumb`.
    static func enabled(
        forced: Bool, disabled: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> Bool {
        if disabled { return false }
        if forced { return true }
        if environment["NO_COLOR"] != nil { return false }
        if environment["TERM"] == "dumb" { return false }
        return stdoutIsTerminal
    }
}
