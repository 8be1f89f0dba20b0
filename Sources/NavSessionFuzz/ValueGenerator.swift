import DBusKit

/// Random and adversarial argument values: valid demo names mixed with empty, huge, odd-Unicode and
/// malformed ones, extreme ids, stale paths, deep JSON and attached descriptors.
struct ValueGenerator {
    var random: SeededRandom
    /// An open descriptor to attach (`h`), or -1.
    let descriptor: Int32
    /// Window paths seen so far (stale ones stay in the list on purpose).
    var windows: [String] = ["/org/navsession/Session1/window/1"]
    /// Descriptors left for the current call: the bus disconnects a sender of more than 16 in one message.
    var descriptorsLeft = 8

    static let screens = ["home", "detail", "editor", "settings", "profile", "about", "login", "waiting", "onboarding1"]
    static let words = [
        "", "main", "sheet", "cover", "alert", "confirmationDialog", "sheet+stack", "logout", "home", "settings",
        "new-window", "id", "edit", "true", "0", "-1", "🙂", "é\u{301}", "\u{202E}rtl", "\u{1}\u{1f}", "ﾟ",
        "navsession-demo://detail/42", "navsession-demo://detail/42/edit", "navsession-demo://settings/profile?edit=true",
        "navsession-demo://waiting", "navsession-demo://", "navsession-demo://detail/x", "https://example.com/a?b=c",
        "file:///etc/hostname", "javascript:alert(1)", "::::", "%00%ff", "id:Title", "id:Title:destructive", "a:b:c:d",
    ]
    static let json = [
        "[]", "{}", "null", "[{}]", #"{"command":"dismiss"}"#, #"[{"command":"stackAppend","model":{"kind":"screen","screen":"detail","params":{"id":"1"}}}]"#,
        #"[{"command":"stackDropLast","count":1}]"#, #"[{"command":"tabsSelectItem","tab":"settings"}]"#,
        #"[{"command":"present","style":"sheet","model":{"kind":"screen","screen":"editor","params":{"id":"1"}}}]"#,
        #"[{"command":"switchModel","model":{"kind":"screen","screen":"main"}}]"#, #"[{"command":"sequence","commands":[]}]"#,
        #"[{"style":"push","screen":"a"},{"style":"sheet","screen":"b","withNavigation":true}]"#, "[1,2,3", "\"", "[\"\\ud800\"]",
    ]

    /// Built once: long names, deep JSON, megabytes of text, long route lists.
    static let large: [String] = {
        var texts: [String] = []
        for unit in ["x", "é", "🙂", "\""] { for count in [255, 256, 4097, 70_000] { texts.append(String(repeating: unit, count: count)) } }
        for count in [1 << 20, 3 << 20, 9 << 20] { texts.append(String(repeating: "y", count: count)) }
        for depth in [64, 1000, 5000] {
            texts.append(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            texts.append(String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth))
        }
        for count in [10, 300, 1000] {
            texts.append("[" + Array(repeating: #"{"style":"push","screen":"a"}"#, count: count).joined(separator: ",") + "]")
        }
        return texts
    }()

    init(seed: UInt64, descriptor: Int32) {
        random = SeededRandom(seed: seed)
        self.descriptor = descriptor
    }

    mutating func string() -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<6: return random.pick(Self.screens)
        case 6..<12: return random.pick(Self.words)
        case 12..<15: return random.pick(Self.json)
        case 15, 16, 17, 18: return random.pick(Self.large)
        default: return String((0..<Int.random(in: 0..<40, using: &random)).map { _ in
            Character(Unicode.Scalar(UInt32.random(in: 1..<0xD7FF, using: &random)) ?? "?") })
        }
    }

    mutating func uint64() -> UInt64 {
        random.pick([0, 1, 2, 3, 4, 5, 7, 10, 20, 100, UInt64(Int.max), UInt64(Int.max) + 1, .max, .random(in: 0...UInt64.max, using: &random)])
    }

    mutating func value(_ type: SignatureType, depth: Int = 0) -> Value {
        switch type {
        case .byte: return .byte(.random(in: 0...255, using: &random))
        case .boolean: return .boolean(random.chance(0.5))
        case .int16: return .int16(.random(in: .min ... .max, using: &random))
        case .uint16: return .uint16(.random(in: .min ... .max, using: &random))
        case .int32: return .int32(random.pick([0, -1, 1, .min, .max]))
        case .uint32: return .uint32(random.pick([0, 1, 2, 5, 300, 1024, 5000, .max]))
        case .int64: return .int64(random.pick([0, -1, .min, .max]))
        case .uint64: return .uint64(uint64())
        case .double: return .double(random.pick([0, -0.0, .infinity, .nan, 1e308]))
        case .string: return .string(depth == 0 ? string() : random.pick(random.chance(0.5) ? Self.screens : Self.words))
        case .objectPath:
            let path = random.chance(0.7) ? random.pick(windows) : random.pick(["/", "/org/navsession/Session1/window/999999", "/org/navsession/Session1"])
            if let parsed = try? ObjectPath(path) { return .objectPath(parsed) }
            return .string(path)
        case .signature:
            if let parsed = try? Signature(random.pick(["", "s", "a{sv}", "(ii)"])) { return .signature(parsed) }
            return .string("")
        case .unixFD:
            guard descriptor >= 0, descriptorsLeft > 0 else { return .int32(0) }
            descriptorsLeft -= 1
            return .unixFD(descriptor)
        case .variant:
            return .variant(value(random.pick([.string, .uint64, .boolean, .unixFD, .array(.string)]), depth: depth + 1))
        case .array(let element):
            // Only top-level arrays are long, so a call stays below the bus's 32 MiB message limit.
            let count = depth > 0 ? random.pick([0, 1, 2, 5]) : random.pick([0, 1, 2, 5, 50, 257, 1025, 3000, 0, 1, 2, 3])
            if element == .string, count > 100 {
                return .array(.string, (0..<count).map { _ in .string(random.pick(Self.screens)) })
            }
            return .array(element, (0..<count).map { _ in value(element, depth: depth + 1) })
        case .dictionary(let key, let valueType):
            let count = depth > 0 ? random.pick([0, 1, 2]) : random.pick([0, 1, 2, 3, 0, 1, 2, 40, 1100])
            var seen = Set<Value>()
            var entries: [DictionaryEntry] = []
            for _ in 0..<count {
                let k = value(key, depth: depth + 1)
                if seen.insert(k).inserted { entries.append(DictionaryEntry(k, value(valueType, depth: depth + 1))) }
            }
            return .dictionary(key: key, value: valueType, entries)
        case .structure(let fields): return .structure(fields.map { value($0, depth: depth + 1) })
        }
    }

    /// Arguments for `types`, or (sometimes) for a random wrong signature.
    mutating func arguments(for types: [SignatureType]) -> [Value] {
        descriptorsLeft = 8
        if random.chance(0.08) {
            return (0..<Int.random(in: 0...3, using: &random)).map { _ in value(random.pick([.string, .uint32, .uint64, .boolean, .variant, .array(.string)])) }
        }
        return types.map { value($0) }
    }
}
