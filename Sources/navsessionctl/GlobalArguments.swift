import ArgumentParser
import NavigationCore

/// Rewrites the command line before ArgumentParser sees it, so shared options may go anywhere:
///
/// - global options before the subcommand (`navsessionctl --dest X list`) move to just after it;
/// - for `exec`, the options of `exec` itself typed after COMMAND (and before a `--`) move before WINDOW.
///
/// An unknown subcommand becomes a usage error with a "did you mean" (``unknownSubcommand(in:)``).
enum GlobalArguments {
    /// Options that take a value (`--dest X` or `--dest=X`).
    static let valued: Set<String> = ["--dest", "--bus", "--timeout"]
    /// Options without a value that more than one subcommand has.
    static let flags: Set<String> = ["--json"]
    /// `exec`'s own flags, besides the shared ones.
    static let execFlags: Set<String> = ["--dry-run", "--json"]

    /// The subcommand names.
    static var subcommands: [String] {
        NavSessionCtl.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// The rewritten arguments (without the program name).
    static func rewrite(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            let name = String(word.prefix { $0 != "=" })
            if valued.contains(name) {
                leading.append(word)
                if !word.contains("="), index + 1 < arguments.endIndex {
                    leading.append(arguments[index + 1])
                    index += 1
                }
            } else if flags.contains(word) {
                leading.append(word)
            } else {
                break
            }
            index += 1
        }
        guard index < arguments.endIndex else { return arguments }
        let subcommand = arguments[index]
        let rest = Array(arguments[(index + 1)...])
        return [subcommand] + (subcommand == "exec" ? hoistExecOptions(leading + rest) : leading + rest)
    }

    /// For `exec WINDOW COMMAND WORDS…`: moves `--dest`/`--bus`/`--timeout`/`--json`/`--dry-run` found anywhere
    /// (between WINDOW and COMMAND, among the WORDS) up to a `--` to the front, where ArgumentParser reads them;
    /// the command's own options (`--clear`, `--source=…`) stay where they are.
    static func hoistExecOptions(_ words: [String]) -> [String] {
        var hoisted: [String] = []
        var kept: [String] = []
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            if word == "--" {
                kept += words[index...]
                break
            }
            let name = String(word.prefix { $0 != "=" })
            if valued.contains(name) {
                hoisted.append(word)
                if !word.contains("="), index + 1 < words.endIndex {
                    hoisted.append(words[index + 1])
                    index += 1
                }
            } else if execFlags.contains(word) {
                hoisted.append(word)
            } else {
                kept.append(word)
            }
            index += 1
        }
        return hoisted + kept
    }

    /// `unknown subcommand 'lsit'; did you mean 'list'?` when the first word after the global options is not a
    /// subcommand, an option or `help`; nil otherwise.
    static func unknownSubcommand(in rewritten: [String]) -> String? {
        guard let first = rewritten.first, !first.hasPrefix("-"), !subcommands.contains(first) else { return nil }
        var text = "unknown subcommand '\(first)'"
        if let suggestion = Spelling.closest(to: first, in: subcommands) { text += "; did you mean '\(suggestion)'?" }
        return text + " (run 'navsessionctl --help' for the list)"
    }
}
