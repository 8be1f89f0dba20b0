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
    /// The words the command takes and the property each fills, in order: its ``directShape`` and its
    /// ``fill(from:)`` both come from here.
    static var direct: DirectSyntax<Self> { get }

    /// The options, flags and positional arguments the command declares.
    static var directShape: DirectShape { get }

    /// Sets every property of a command made with `init()` from `words` (defaults for what is absent),
    /// converting values as swift-argument-parser would (``ExpressibleByArgument``). Throws
    /// ``DirectParser/Decline`` for a value that does not convert, leaving the error to swift-argument-parser.
    ///
    /// A method rather than an initializer: in an initializer, even after `self.init()`, an assignment to a
    /// property-wrapped property re-creates the wrapper from its default instead of setting its value.
    mutating func fill(from words: DirectWords) throws(DirectParser.Decline)

    /// Runs the command (its `run()`, `async` or not), called through this protocol's witness rather than by
    /// casting the command to `AsyncParsableCommand`: a cast to an existential looks the conformance up at run
    /// time, a scan of the binary's conformance records.
    mutating func runDirectly() async throws

    /// Runs the command on this thread without a task when its run is one call (``OneShot``); false when it is not,
    /// or when the call was not delivered: the command then runs as usual.
    func runOnThisThread() -> Bool
}

extension DirectParsable where Self: AsyncParsableCommand {
    mutating func runDirectly() async throws { try await run() }
}

extension DirectParsable {
    mutating func runDirectly() async throws { try run() }

    func runOnThisThread() -> Bool { false }

    static var directShape: DirectShape { direct.shape }

    mutating func fill(from words: DirectWords) throws(DirectParser.Decline) {
        try Self.direct.fill(&self, from: words)
    }
}

/// A ``DirectParsable`` command's words, in the order of its declaration: `DirectSyntax(.connection,
/// .flag("json") { $0.json = $1 }, .positional { $0.window = $1 })`. Positional arguments are numbered in the
/// order given. A word sets its property with a closure, not a key path: a key path writes a property-wrapped
/// property by reading it first, and an argument that was never parsed cannot be read.
struct DirectSyntax<Command>: Sendable {
    /// The options, flags and number of positional arguments the words make.
    let shape: DirectShape
    private let words: [DirectWord<Command>]

    init(_ words: DirectWord<Command>...) {
        var options: Set<String> = []
        var flags: Set<String> = []
        var required = 0
        var most = 0
        var passthroughAfter: Int?
        var numbered: [DirectWord<Command>] = []
        for var word in words {
            switch word.kind {
            case .options(let names): options.formUnion(names)
            case .flag(let name): flags.insert(name)
            case .positional(let isRequired):
                word.index = most
                most += 1
                if isRequired { required = most }
            case .rest:
                word.index = most
                most = Int.max
            case .passthrough:
                passthroughAfter = most
            }
            numbered.append(word)
        }
        shape = DirectShape(
            options: options, flags: flags, positionals: required...max(required, most), passthroughAfter: passthroughAfter)
        self.words = numbered
    }

    /// Sets each word's property on `command` from `words`.
    func fill(_ command: inout Command, from words: DirectWords) throws(DirectParser.Decline) {
        for word in self.words { try word.fill(&command, words, word.index) }
    }
}

/// One word (or group of words) of a command line and the property it fills.
struct DirectWord<Command>: Sendable {
    enum Kind: Sendable {
        /// Options that take a value.
        case options(Set<String>)
        /// An option without a value.
        case flag(String)
        /// The next positional argument.
        case positional(required: Bool)
        /// Every positional argument from here on.
        case rest
        /// The words after the positional arguments, verbatim (``DirectShape/passthroughAfter``).
        case passthrough
    }

    let kind: Kind
    /// For a positional word: its number, given by ``DirectSyntax``.
    fileprivate(set) var index = 0
    let fill: @Sendable (inout Command, DirectWords, Int) throws(DirectParser.Decline) -> Void

    /// `--name`, setting a `Bool`.
    static func flag(_ name: String, _ set: @escaping @Sendable (inout Command, Bool) -> Void) -> Self {
        Self(kind: .flag(name)) { command, words, _ in set(&command, words.flag(name)) }
    }

    /// `--name VALUE`, optional.
    static func option<Value: ExpressibleByArgument>(
        _ name: String, _ set: @escaping @Sendable (inout Command, Value?) -> Void
    ) -> Self {
        Self(kind: .options([name])) { command, words, _ throws(DirectParser.Decline) in
            set(&command, try words.option(name, as: Value.self))
        }
    }

    /// `--name VALUE`, `value` when absent.
    static func option<Value: ExpressibleByArgument>(
        _ name: String, default value: Value, _ set: @escaping @Sendable (inout Command, Value) -> Void
    ) -> Self where Value: Sendable {
        Self(kind: .options([name])) { command, words, _ throws(DirectParser.Decline) in
            set(&command, try words.option(name, as: Value.self) ?? value)
        }
    }

    /// `--name VALUE`, required.
    static func required(_ name: String, _ set: @escaping @Sendable (inout Command, String) -> Void) -> Self {
        Self(kind: .options([name])) { command, words, _ throws(DirectParser.Decline) in
            set(&command, try words.required(name))
        }
    }

    /// The next positional argument, required.
    static func positional<Value: ExpressibleByArgument>(
        _ set: @escaping @Sendable (inout Command, Value) -> Void
    ) -> Self {
        Self(kind: .positional(required: true)) { command, words, index throws(DirectParser.Decline) in
            set(&command, try words.positional(index))
        }
    }

    /// The next positional argument, nil when absent.
    static func optional<Value: ExpressibleByArgument>(
        _ set: @escaping @Sendable (inout Command, Value?) -> Void
    ) -> Self {
        Self(kind: .positional(required: false)) { command, words, index throws(DirectParser.Decline) in
            set(&command, try words.optionalPositional(index))
        }
    }

    /// The next positional argument, `value` when absent.
    static func optional<Value: ExpressibleByArgument & Sendable>(
        default value: Value, _ set: @escaping @Sendable (inout Command, Value) -> Void
    ) -> Self {
        Self(kind: .positional(required: false)) { command, words, index throws(DirectParser.Decline) in
            set(&command, try words.optionalPositional(index) ?? value)
        }
    }

    /// Every positional argument from here on, each converted.
    static func rest<Value: ExpressibleByArgument>(
        _ set: @escaping @Sendable (inout Command, [Value]) -> Void
    ) -> Self {
        Self(kind: .rest) { command, words, index throws(DirectParser.Decline) in
            var values: [Value] = []
            for position in index..<max(index, words.positionals.count) { values.append(try words.positional(position)) }
            set(&command, values)
        }
    }

    /// The words after the positional arguments, verbatim.
    static func passthrough(_ set: @escaping @Sendable (inout Command, [String]) -> Void) -> Self {
        Self(kind: .passthrough) { command, words, _ in set(&command, words.passthrough) }
    }
}

extension DirectWord where Command: ConnectingCommand {
    /// `--bus`, `--dest` and `--timeout` (``ConnectionOptions``).
    static var connection: Self {
        Self(kind: .options(ConnectionOption.names)) { command, words, _ in
            command.connection = ConnectionOptions.direct(words)
        }
    }
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
