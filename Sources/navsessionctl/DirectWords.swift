import ArgumentParser

/// A command line sorted by a ``DirectShape``: what ``DirectParsable/fill(from:)`` reads.
struct DirectWords: Sendable {
    /// Option values by long name.
    var options: [String: String] = [:]
    /// The flags given.
    var flags: Set<String> = []
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// The words after the passthrough point (``DirectShape/passthroughAfter``), verbatim.
    var passthrough: [String] = []

    /// An option's value as typed, or nil when it was not given.
    func option(_ name: String) -> String? {
        options[name]
    }

    /// An option's value converted, or nil when it was not given.
    func option<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type) throws(DirectParser.Decline) -> Value? {
        guard let text = options[name] else { return nil }
        guard let value = Value(argument: text) else { throw DirectParser.Decline() }
        return value
    }

    /// A required option's value.
    func required(_ name: String) throws(DirectParser.Decline) -> String {
        guard let text = options[name] else { throw DirectParser.Decline() }
        return text
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The positional argument at `index`, converted.
    func positional<Value: ExpressibleByArgument>(_ index: Int, as type: Value.Type = Value.self) throws(DirectParser.Decline) -> Value {
        guard let value = try optionalPositional(index, as: type) else { throw DirectParser.Decline() }
        return value
    }

    /// The positional argument at `index`, converted, or nil when there are fewer.
    func optionalPositional<Value: ExpressibleByArgument>(_ index: Int, as type: Value.Type = Value.self) throws(DirectParser.Decline) -> Value? {
        guard index < positionals.count else { return nil }
        guard let value = Value(argument: positionals[index]) else { throw DirectParser.Decline() }
        return value
    }

    /// The positional arguments from `index` on.
    func positionals(from index: Int) -> [String] {
        index < positionals.count ? Array(positionals[index...]) : []
    }
}
