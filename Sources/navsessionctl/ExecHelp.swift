import ArgumentParser
import Glibc

/// `navsessionctl exec --help`: USAGE first, then what exec does, its arguments and options, then the commands
/// as a two-column table (name | arguments and summary) whose second column wraps at word boundaries.
enum ExecHelp {
    /// The whole help text for a terminal `columns` wide.
    static func text(columns: Int) -> String {
        let generated = NavSessionCtl.helpMessage(for: ExecCommand.self, columns: columns)
        var sections = generated.split(separator: "\n\n")
            .map(trimmingNewlines).filter { !$0.isEmpty }
        if let usage = sections.firstIndex(where: { $0.hasPrefix("USAGE:") }) {
            sections.insert(sections.remove(at: usage), at: 0)
        }
        return sections.joined(separator: "\n\n") + "\n\n" + table(columns: columns)
    }

    /// `text` without the newlines at either end.
    private static func trimmingNewlines(_ text: Substring) -> String {
        let start = text.drop(while: \.isNewline)
        guard let last = start.lastIndex(where: { !$0.isNewline }) else { return "" }
        return String(start[...last])
    }

    /// `COMMANDS:` and one row per operation: the name, then its arguments and summary (with the D-Bus method
    /// in parentheses), wrapped under the second column; on a narrow terminal, the text goes under the name.
    static func table(columns: Int) -> String {
        let nameWidth = (ExecOperation.all.map(\.name.count).max() ?? 0) + 2
        let indent = columns - 2 - nameWidth >= 36 ? 2 + nameWidth : 6
        var lines = ["COMMANDS:"]
        for operation in ExecOperation.all {
            let arguments = operation.arguments.map(\.usage).joined(separator: " ")
            var paragraphs: [String] = []
            if !arguments.isEmpty { paragraphs.append(arguments) }
            paragraphs.append("\(operation.summary) (\(operation.member))")
            let wrapped = paragraphs.flatMap { wrap($0, width: max(columns - indent, 20)) }
            let name = "  " + operation.name
            if indent > 6, name.count < indent {
                lines.append(name + String(repeating: " ", count: indent - name.count) + wrapped[0])
                lines += wrapped.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            } else {
                lines.append(name)
                lines += wrapped.map { String(repeating: " ", count: indent) + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `COLUMNS` when set, else the width of the terminal on stdout, else 80; kept within 40…160.
    static var terminalColumns: Int {
        if let text = getenv("COLUMNS").map({ String(cString: $0) }), let value = Int(text), value > 0 {
            return min(max(value, 40), 160)
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return min(max(Int(size.ws_col), 40), 160)
        }
        return 80
    }

    /// Whether `arguments` (after ``GlobalArguments/rewrite(_:)``) ask for exec's help: `exec … --help` or `-h`
    /// before any `--`, or `help exec`.
    static func isRequested(by arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        if first == "help" { return arguments.dropFirst().first == "exec" }
        guard first == "exec" else { return false }
        let options = arguments.dropFirst().prefix { $0 != "--" }
        return options.contains("--help") || options.contains("-h")
    }
}
