import ArgumentParser

/// A subcommand that ``DirectParser`` can build from an ordinary command line without swift-argument-parser's
/// reflection.
///
/// swift-argument-parser stays the definition of every command: its help, usage errors, completion scripts and
/// man page. Its parse, though, reflects the command types through the Swift runtime, and each first look-up
/// scans all of the binary's ≈ 4 200 protocol conformance records: ≈ 8.7 M of the 11.2 M instructions of a
/// one-call process (Docs/performance.md, "navsessionctl", item 13). A conforming command declares the words it
/// takes (``directShape``) and how they fill its properties (``fill(from:)``); anything else, and every
/// failure, is left to swift-argument-parser. `DirectParserTests` checks the shapes against the commands'
/// declarations (`--experimental-dump-help`) and that every command line the direct parse accepts gives the
/// command swift-argument-parser's parse gives.
protocol DirectParsable: ParsableCommand {
    /// The options, flags and positional arguments the command declares.
    static var directShape: DirectShape { get }

    /// Sets every property of a command made with `init()` from `words` (defaults for what is absent),
    /// converting values as swift-argument-parser would (``ExpressibleByArgument``). Throws
    /// ``DirectParser/Decline`` for a value that does not convert, leaving the error to swift-argument-parser.
    ///
    /// A method rather than an initializer: in an initializer, even after `self.init()`, an assignment to a
    /// property-wrapped property re-creates the wrapper from its default instead of setting its value.
    mutating func fill(from words: DirectWords) throws(DirectParser.Decline)
}

/// The words a ``DirectParsable`` command takes, by their long names (without `--`).
struct DirectShape: Sendable {
    /// Options that take a value (`--dest X`, `--dest=X`).
    var options: Set<String>
    /// Options without a value.
    var flags: Set<String>
    /// How many positional arguments the command takes.
    var positionals: ClosedRange<Int>
    /// For a command whose last argument captures everything after it (`exec`'s WORDS,
    /// `.captureForPassthrough`): how many positional arguments come first.
    var passthroughAfter: Int?

    init(options: Set<String>, flags: Set<String> = [], positionals: ClosedRange<Int>, passthroughAfter: Int? = nil) {
        self.options = options
        self.flags = flags
        self.positionals = positionals
        self.passthroughAfter = passthroughAfter
    }
}
