import DBusTestSupport

/// A batch command's keys as scripts/generate-schemas declares them (`CommandShape.all`, generated): what
/// ``JSONGenerator/declaredCommand(_:ids:)`` builds a command of, so a command declared there is fuzzed from the
/// day it exists, before (or without) a generator of its own.
struct CommandShape: Sendable {
    /// What a key holds, as far as the fuzzer can make a plausible value of it.
    enum Kind: Sendable {
        case screen, string, boolean, params, modelSpec, reference, other
        case integer(ClosedRange<Int>)
        case choice([String])
    }

    /// One key of the command's JSON object.
    struct Field: Sendable {
        let key: String
        let kind: Kind
        let required: Bool

        init(_ key: String, _ kind: Kind, required: Bool) {
            self.key = key
            self.kind = kind
            self.required = required
        }
    }

    let name: String
    let fields: [Field]

    init(_ name: String, _ fields: [Field]) {
        self.name = name
        self.fields = fields
    }
}

extension JSONGenerator {
    /// A command built from its declaration (``CommandShape``): every required key and some optional ones, each
    /// with a plausible value of its kind (a declared screen, known ids and tags, small numbers, params); a key the
    /// fuzzer cannot make a value of is left out, or given `{}` when it is required (the daemon then refuses it).
    func declaredCommand(_ random: inout SplitMix64, ids: [UInt64]) -> GeneratedJSON {
        let shape = random.pick(CommandShape.all, or: CommandShape("dismiss", []))
        var members: [(String, GeneratedJSON)] = [("command", .string(shape.name))]
        for field in shape.fields where field.required || random.chance(0.4) {
            let value: GeneratedJSON? =
                switch field.kind {
                case .screen: .string(random.pick(vocabulary.screenNames, or: "home"))
                case .string: .string(random.pick(["x", "inbox", "42", ""], or: "x"))
                case .boolean: .bool(random.chance(0.5))
                case .params: .object([("id", .string(String(random.int(0...3))))])
                case .modelSpec: screenSpec(&random)
                case .reference: reference(&random, ids: ids)
                case .integer(let range): .int(random.int(range))
                case .choice(let values): .string(random.pick(values, or: ""))
                case .other: field.required ? .object([]) : nil
                }
            if let value { members.append((field.key, value)) }
        }
        return .object(members)
    }
}
