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
        var index = arguments.startIndex
        while let length = optionLength(arguments, at: index, flags: flags) { index += length }
        guard index < arguments.endIndex else { return arguments }
        let leading = Array(arguments[..<index])
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
            if words[index] == "--" {
                kept += words[index...]
                break
            }
            if let length = optionLength(words, at: index, flags: execFlags) {
                hoisted += words[index..<(index + length)]
                index += length
            } else {
                kept.append(words[index])
                index += 1
            }
        }
        return hoisted + kept
    }

    /// How many words the shared option at `index` takes (`--dest X` 2, `--dest=X` or a flag 1); nil when
    /// the word there is not one (or there is no word).
    static func optionLength(_ words: [String], at index: Int, flags: Set<String>) -> Int? {
        guard index < words.endIndex else { return nil }
        let word = words[index]
        if valued.contains(String(word.prefix { $0 != "=" })) {
            return !word.contains("=") && index + 1 < words.endIndex ? 2 : 1
        }
        return flags.contains(word) ? 1 : nil
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
