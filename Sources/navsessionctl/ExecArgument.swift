import DBusKit

/// One argument of an ``ExecOperation``, in the order of the D-Bus method's inputs.
enum ExecArgument: Sendable, Equatable {
    /// A required word sent as `s`.
    case string(String)
    /// A required word that must be a JSON document, sent as `s` (the daemon validates it).
    case json(String)
    /// A required model id, sent as `t`.
    case model(String)
    /// A required unsigned number, sent as `u`.
    case count(String)
    /// An optional unsigned number, sent as `u`; `default` when omitted.
    case optionalCount(String, default: UInt32)
    /// All remaining words as `KEY=VALUE`, sent as `a{ss}`.
    case parameters
    /// All remaining words, sent as `as`; at least `minimum` of them.
    case words(String, minimum: Int)
    /// A `--NAME` flag anywhere among the words, sent as `b`.
    case flag(String)
    /// A `--NAME=VALUE` option anywhere among the words, sent as `s`; `""` when omitted.
    case option(String)
    /// `--expected-version=N` and `--transaction=JSON` among the words, sent as Window1.Apply's `a{ss}` options.
    case applyOptions

    /// How the argument looks in a usage line.
    var usage: String {
        switch self {
        case .string(let name), .json(let name), .model(let name), .count(let name): name
        case .optionalCount(let name, _): "[\(name)]"
        case .parameters: "[KEY=VALUE…]"
        case .words(let name, let minimum): minimum > 0 ? "\(name)…" : "[\(name)…]"
        case .flag(let name): "[--\(name)]"
        case .option(let name): "[--\(name)=VALUE]"
        case .applyOptions: "[--expected-version=N] [--transaction=JSON]"
        }
    }

    /// Whether this argument takes every remaining positional word.
    var isRest: Bool {
        switch self {
        case .parameters, .words: true
        default: false
        }
    }

    /// Whether this argument is written as `--NAME` rather than by position.
    var isNamed: Bool {
        switch self {
        case .flag, .option: true
        default: false
        }
    }
}
