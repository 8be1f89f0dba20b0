import DBusKit
import DBusTestSupport

/// Random values of any D-Bus type: integers at their limits, odd doubles, adversarial strings, object paths
/// (live, stale and malformed windows), signatures, file descriptors, empty and huge containers, variants of
/// anything (descriptors included), all within the call's ``SizeBudget``.
struct ValueGenerator {
    let strings: StringGenerator
    let descriptors: DescriptorPool
    /// The longest array or dictionary (`--max-array`); the daemon's own limit is 65,536.
    let maximumArrayLength: Int
    /// The most descriptors in one message (dbus-daemon refuses more than its limit and drops the sender).
    static let maximumDescriptors = 12
    /// Container nesting kept well under the spec's total of 64 (arrays + structs + variants).
    static let maximumDepth = 24

    /// Paths and words the values mix in.
    struct Context {
        var paths: [ObjectPath]
        var words: [String]
    }

    func make(
        _ type: SignatureType, _ random: inout SplitMix64, _ budget: inout SizeBudget, _ context: Context, depth: Int = 0
    ) -> Value {
        switch type {
        case .byte: return .byte(random.chance(0.3) ? random.pick([0, 1, 0x7F, 0xFF], or: 0) : UInt8.random(in: 0...255, using: &random))
        case .boolean: return .boolean(random.chance(0.5))
        case .int16: return .int16(random.chance(0.4) ? random.pick([0, 1, -1, .min, .max], or: 0) : Int16.random(in: .min ... .max, using: &random))
        case .uint16: return .uint16(random.chance(0.4) ? random.pick([0, 1, .max], or: 0) : UInt16.random(in: 0 ... .max, using: &random))
        case .int32: return .int32(random.chance(0.4) ? random.pick([0, 1, -1, .min, .max], or: 0) : Int32.random(in: .min ... .max, using: &random))
        case .uint32: return .uint32(uint32(&random))
        case .int64: return .int64(random.chance(0.4) ? random.pick([0, 1, -1, .min, .max], or: 0) : Int64.random(in: .min ... .max, using: &random))
        case .uint64: return .uint64(uint64(&random))
        case .double: return .double(double(&random))
        case .string: return .string(strings.make(&random, budget: &budget, words: context.words))
        case .objectPath: return .objectPath(path(&random, &budget, context))
        case .signature: return .signature(signature(&random))
        case .unixFD:
            budget.takeDescriptor()
            return .unixFD(descriptors.any(&random))
        case .variant:
            var inner = random.chance(0.05) && depth < Self.maximumDepth - 2
                ? SignatureType.variant : randomType(&random, depth: depth + 1)
            if (budget.descriptors <= 0 && inner.carriesDescriptors) || depth >= Self.maximumDepth { inner = .string }
            return .variant(make(inner, &random, &budget, context, depth: depth + 1))
        case .array(let element):
            return .array(element, elements(element, &random, &budget, context, depth: depth))
        case .dictionary(let key, let valueType):
            let count = length(for: valueType, &random, &budget)
            var entries: [DictionaryEntry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                guard budget.take(SizeBudget.element) else { break }
                if budget.descriptors <= 0 && (key.carriesDescriptors || valueType.carriesDescriptors) { break }
                entries.append(
                    DictionaryEntry(
                        make(key, &random, &budget, context, depth: depth + 1),
                        make(valueType, &random, &budget, context, depth: depth + 1)))
            }
            return .dictionary(key: key, value: valueType, entries)
        case .structure(let fields):
            return .structure(fields.map { make($0, &random, &budget, context, depth: depth + 1) })
        }
    }

    private func elements(
        _ element: SignatureType, _ random: inout SplitMix64, _ budget: inout SizeBudget, _ context: Context, depth: Int
    ) -> [Value] {
        let count = length(for: element, &random, &budget)
        var values: [Value] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard budget.take(SizeBudget.element) else { break }
            if budget.descriptors <= 0 && element.carriesDescriptors { break }
            values.append(make(element, &random, &budget, context, depth: depth + 1))
        }
        return values
    }

    /// Mostly short; sometimes in the thousands, up to ``maximumArrayLength`` (past the daemon's limit).
    private func length(for element: SignatureType, _ random: inout SplitMix64, _ budget: inout SizeBudget) -> Int {
        if element == .unixFD { return min(random.int(0...3), max(budget.descriptors, 0)) }
        switch random.weighted([6, 3, 0.4, 0.1]) {
        case 0: return random.int(0...3)
        case 1: return random.length(upTo: 64)
        case 2: return random.int(500...5000)
        default: return random.int(min(60_000, maximumArrayLength)...maximumArrayLength)
        }
    }

    func uint32(_ random: inout SplitMix64) -> UInt32 {
        random.chance(0.5) ? random.pick([0, 1, 2, 3, 1000, .max - 1, .max], or: 0) : UInt32.random(in: 0 ... .max, using: &random)
    }

    func uint64(_ random: inout SplitMix64) -> UInt64 {
        random.chance(0.5)
            ? random.pick([0, 1, 2, 3, 100, UInt64(Int64.max), UInt64(Int64.max) + 1, .max - 1, .max], or: 0)
            : UInt64.random(in: 0 ... .max, using: &random)
    }

    func double(_ random: inout SplitMix64) -> Double {
        let any = Double.random(in: -1e9...1e9, using: &random)
        return random.pick([.nan, .infinity, -.infinity, -0.0, 0, 1, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude / 3, any], or: 0)
    }

    /// A live or stale window, another object of the daemon, or a path that almost names one.
    func path(_ random: inout SplitMix64, _ budget: inout SizeBudget, _ context: Context) -> ObjectPath {
        if random.chance(0.6), let known = context.paths.randomElement(using: &random) { return known }
        let window = "/org/navsession/Session1/window/"
        let texts = [
            "/", "/org", "/org/navsession", "/org/navsession/Session1", "/org/navsession/Session1/window", window + "0",
            window + "1", window + "2", window + "18446744073709551615", window + "18446744073709551616",
            window + "99999999999999999999999999", window + "01", window + "1/x", window + "a", window + "_1",
            "/org/navsession/Session1/windows/1", "/org/navsession/Session2", "/org/navsession/Demo",
            "/org/navsession/Demo/x", "/org/freedesktop/DBus", "/a/b/c/d/e/f/g/h/i/j",
            window + String(random.int(3...500)),
        ]
        var text = random.pick(texts, or: "/")
        if random.chance(0.02) {
            let elements = random.int(100...5000)
            text = (0..<elements).map { "/\($0)" }.joined()
        } else if random.chance(0.01) {
            text = window + String(repeating: "9", count: random.int(100...100_000))
        }
        guard budget.take(SizeBudget.string(text.utf8.count)), let path = try? ObjectPath(text) else { return .root }
        return path
    }

    /// A valid signature (at most 255 bytes).
    func signature(_ random: inout SplitMix64) -> Signature {
        let types = (0..<random.int(0...4)).map { _ in randomType(&random, depth: 0) }
        return (try? Signature(types)) ?? .empty
    }

    /// A random complete type; containers only near the top.
    func randomType(_ random: inout SplitMix64, depth: Int) -> SignatureType {
        let basics: [SignatureType] = [.byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string,
                                       .objectPath, .signature, .unixFD]
        guard depth < 3, random.chance(0.35) else {
            return random.chance(0.1) ? .variant : random.pick(basics, or: .string)
        }
        switch random.int(0...3) {
        case 0: return .array(randomType(&random, depth: depth + 1))
        case 1: return .dictionary(key: random.pick(basics, or: .string), value: randomType(&random, depth: depth + 1))
        case 2: return .structure((0..<random.int(1...4)).map { _ in randomType(&random, depth: depth + 1) })
        default: return .variant
        }
    }
}

extension SignatureType {
    /// Whether values of this type hold file descriptors (`h` anywhere outside variants; a variant's
    /// content is chosen when it is made).
    var carriesDescriptors: Bool {
        switch self {
        case .unixFD: true
        case .array(let element): element.carriesDescriptors
        case .dictionary(let key, let value): key.carriesDescriptors || value.carriesDescriptors
        case .structure(let fields): fields.contains { $0.carriesDescriptors }
        default: false
        }
    }
}
