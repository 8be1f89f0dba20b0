import ArgumentParser

/// Builds the command for an ordinary command line without swift-argument-parser's reflection
/// (``DirectParsable``), or declines, and `NavSessionCtl.main` hands the words to swift-argument-parser.
///
/// It accepts only what reads one way: the subcommand first (after ``GlobalArguments/rewrite(_:)``), then
/// `--name value`, `--name=value` and `--flag` words the command declares, each at most once, and the
/// positional arguments the command takes, none of them starting with `-` or naming a subcommand. It declines
/// `--`, short options, help and version requests, repeated or unknown options, a value that does not
/// convert and a command that fails its own `validate()`: for all of those swift-argument-parser gives the
/// outcome, and the error text, it always gave.
enum DirectParser {
    /// Thrown by ``DirectParsable/fill(from:)``: the words are left to swift-argument-parser.
    struct Decline: Error {}

    /// The subcommands parsed directly, by name; `DirectParserTests` checks that every subcommand is here.
    static let commands: [String: any DirectParsable.Type] = [
        "list": ListCommand.self,
        "open-window": OpenWindowCommand.self,
        "dismiss-window": DismissWindowCommand.self,
        "open-url": OpenURLCommand.self,
        "exec": ExecCommand.self,
        "state": StateCommand.self,
        "tree": TreeCommand.self,
        "routes": RoutesCommand.self,
        "watch": WatchCommand.self,
        "wait": WaitCommand.self,
        "graph": GraphCommand.self,
        "plan": PlanCommand.self,
        "guards": GuardsCommand.self,
        "status": StatusCommand.self,
        "closed": ClosedCommand.self,
        "reopen": ReopenCommand.self,
        "session": SessionCommand.self,
        "move": MoveCommand.self,
        "manifest": ManifestCommand.self,
        "group": GroupCommand.self,
        "policy": PolicyCommand.self,
        "stats": StatsCommand.self,
        "history": HistoryCommand.self, "trace": TraceCommand.self,  // History and traces
    ]

    /// The long names swift-argument-parser answers itself wherever they appear: never taken as an exec word.
    private static let builtInNames: Set<String> = [
        "help", "help-hidden", "version", "experimental-dump-help", "generate-completion-script",
    ]

    /// The validated command for `arguments` (rewritten, without the program name), or nil.
    static func command(for arguments: [String]) -> (any DirectParsable)? {
        guard let name = arguments.first, let type = commands[name],
              let words = sort(arguments.dropFirst(), by: type.directShape)
        else { return nil }
        do {
            var command = type.init()
            try command.fill(from: words)
            try command.validate()
            return command
        } catch {
            return nil
        }
    }

    /// `words` sorted by `shape`, or nil when they do not read one way.
    static func sort(_ words: ArraySlice<String>, by shape: DirectShape) -> DirectWords? {
        var sorted = DirectWords()
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            if isSubcommand(word) { return nil }
            if let count = shape.passthroughAfter, sorted.positionals.count == count {
                let rest = words[index...]
                guard rest.allSatisfy(isPassthroughWord) else { return nil }
                sorted.passthrough = Array(rest)
                break
            }
            if word.hasPrefix("-") {
                // swift-argument-parser reads no options after the first positional argument of a command that
                // captures its last words (`exec`); GlobalArguments moves them to the front.
                guard word.hasPrefix("--"), word.count > 2,
                      shape.passthroughAfter == nil || sorted.positionals.isEmpty
                else { return nil }
                let body = word.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    let name = String(body[..<equals])
                    let value = String(body[body.index(after: equals)...])
                    guard shape.options.contains(name), sorted.options[name] == nil, !value.isEmpty else { return nil }
                    sorted.options[name] = value
                } else if shape.flags.contains(String(body)) {
                    guard sorted.flags.insert(String(body)).inserted else { return nil }
                } else if shape.options.contains(String(body)) {
                    let next = words.index(after: index)
                    guard sorted.options[String(body)] == nil, next < words.endIndex,
                          !words[next].hasPrefix("-"), !isSubcommand(words[next])
                    else { return nil }
                    sorted.options[String(body)] = words[next]
                    index = next
                } else {
                    return nil
                }
            } else {
                sorted.positionals.append(word)
            }
            index = words.index(after: index)
        }
        guard shape.positionals.contains(sorted.positionals.count) else { return nil }
        return sorted
    }

    /// Whether `word` names a subcommand (or `help`): swift-argument-parser may take it as one wherever it is.
    private static func isSubcommand(_ word: String) -> Bool {
        commands[word] != nil || word == "help"
    }

    /// Whether swift-argument-parser takes `word` verbatim as a captured word: not `--`, not a short option
    /// (a group such as `-vh` could hold `-h`), and not one of the long options it answers itself.
    private static func isPassthroughWord(_ word: String) -> Bool {
        guard word.hasPrefix("-") else { return true }
        guard word.hasPrefix("--"), word.count > 2 else { return false }
        let name = word.dropFirst(2).prefix { $0 != "=" }
        return !name.hasPrefix("-") && !builtInNames.contains(String(name))
    }
}
