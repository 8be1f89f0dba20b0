import NavigationCore

/// A guard whose decisions another process makes (Docs/guards.md, "Guard providers"), declared in the
/// manifest's `guards` object under its name:
///
/// `{"covers": {"screens": ["profile"]}, "when": ["enter", "leave"], "timeoutMs": 500, "onAbsent": "allow",
/// "onTimeout": "deny"}`
///
/// Before a change that enters (starts) or leaves (finishes or suspends) a model of a covered screen commits,
/// the daemon asks the process registered as the guard's provider (Session1 `RegisterGuard`).
public struct GuardDeclaration: Hashable, Sendable, Codable {
    /// Which changes a guard is asked about.
    public enum Moment: String, Hashable, Sendable, Codable, CaseIterable {
        /// A covered model starts (is entered).
        case enter
        /// A covered model finishes or is suspended (is left).
        case leave
    }

    /// What the daemon decides itself: when no provider is registered (`onAbsent`), and when the provider
    /// does not answer in time, answers garbage or leaves the bus mid-question (`onTimeout`).
    public enum Fallback: String, Hashable, Sendable, Codable {
        /// The change is applied.
        case allow
        /// The change is refused with `org.navsession.Error.Denied`.
        case deny
    }

    /// The screens whose models the guard covers.
    public var screens: [String]
    /// When the guard is asked: on entering, on leaving, or both (the default).
    public var when: [Moment]
    /// How long the provider has to answer, in milliseconds (1–10 000; default 500).
    public var timeoutMs: Int
    /// What happens when no provider is registered (default `allow`).
    public var onAbsent: Fallback
    /// What happens when the provider does not answer in time or answers garbage (default `deny`).
    public var onTimeout: Fallback
    /// The well-known bus name whose owner alone may provide the guard (`org.example.Accounts`); `nil`: the first
    /// client to register provides it (announced in Session1 `Guards`).
    public var provider: String?

    /// The bounds of ``timeoutMs``.
    public static let timeoutRange = 1...10_000

    /// Declares a guard.
    public init(
        screens: [String], when: [Moment] = Moment.allCases, timeoutMs: Int = 500, onAbsent: Fallback = .allow,
        onTimeout: Fallback = .deny, provider: String? = nil
    ) {
        self.provider = provider
        self.screens = screens
        self.when = when
        self.timeoutMs = timeoutMs
        self.onAbsent = onAbsent
        self.onTimeout = onTimeout
    }

    /// Whether the guard is asked when a covered model is entered.
    public var onEnter: Bool { when.contains(.enter) }
    /// Whether the guard is asked when a covered model is left.
    public var onLeave: Bool { when.contains(.leave) }

    enum CodingKeys: String, CodingKey, CaseIterable { case covers, when, timeoutMs, onAbsent, onTimeout, provider }

    struct Covers: Codable {
        var screens: [String]

        init(screens: [String]) { self.screens = screens }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            screens = try c.decode([String].self, forKey: .screens)
            try StrictKeys.check(decoder, allowed: ["screens"])
        }

        enum CodingKeys: String, CodingKey { case screens }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        screens = try c.decode(Covers.self, forKey: .covers).screens
        when = try c.decodeIfPresent([Moment].self, forKey: .when) ?? Moment.allCases
        timeoutMs = try c.decodeIfPresent(Int.self, forKey: .timeoutMs) ?? 500
        onAbsent = try c.decodeIfPresent(Fallback.self, forKey: .onAbsent) ?? .allow
        onTimeout = try c.decodeIfPresent(Fallback.self, forKey: .onTimeout) ?? .deny
        provider = try c.decodeIfPresent(String.self, forKey: .provider)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Covers(screens: screens), forKey: .covers)
        try c.encode(when, forKey: .when)
        try c.encode(timeoutMs, forKey: .timeoutMs)
        try c.encode(onAbsent, forKey: .onAbsent)
        try c.encode(onTimeout, forKey: .onTimeout)
        try c.encodeIfPresent(provider, forKey: .provider)
    }
}

/// The manifest's guards, looked up by screen (built once with the manifest).
struct GuardTable: Hashable, Sendable {
    /// Per covered screen, the names of the guards covering it (sorted).
    let byScreen: [String: [String]]

    init(_ guards: [String: GuardDeclaration]) {
        var table: [String: [String]] = [:]
        for name in guards.keys.sorted() {
            for screen in guards[name]?.screens ?? [] where !(table[screen]?.contains(name) ?? false) {
                table[screen, default: []].append(name)
            }
        }
        byScreen = table
    }
}

extension ManifestValidator {
    /// Guards: non-empty names, at least one covered screen, each declared, at least one moment, a timeout
    /// within ``GuardDeclaration/timeoutRange``.
    func validateGuards() throws(ManifestError) {
        guard document.guards.count <= Self.maximumGuards else {
            throw .invalidValue(key: "guards", detail: "at most \(Self.maximumGuards) guards may be declared")
        }
        for name in document.guards.keys.sorted() {
            guard let declaration = document.guards[name] else { continue }
            let key = "guards.\(name)"
            guard !name.isEmpty else { throw .emptyName(key: "guards") }
            guard !declaration.screens.isEmpty else {
                throw .invalidValue(key: "\(key).covers.screens", detail: "a guard covers at least one screen")
            }
            for (index, screen) in declaration.screens.enumerated() where !document.freeFormScreens {
                guard screens[screen] != nil else { throw .unknownScreen(key: "\(key).covers.screens[\(index)]", screen: screen) }
            }
            guard !declaration.when.isEmpty else {
                throw .invalidValue(key: "\(key).when", detail: "name at least one of \"enter\" and \"leave\"")
            }
            if let provider = declaration.provider, !Self.isWellKnownBusName(provider) {
                throw .invalidValue(
                    key: "\(key).provider",
                    detail: "'\(provider.prefix(64))' is not a well-known bus name (like org.example.Accounts)")
            }
            guard GuardDeclaration.timeoutRange.contains(declaration.timeoutMs) else {
                throw .invalidValue(
                    key: "\(key).timeoutMs",
                    detail: "\(declaration.timeoutMs) is outside \(GuardDeclaration.timeoutRange.lowerBound)–"
                        + "\(GuardDeclaration.timeoutRange.upperBound) ms")
            }
        }
    }

    /// The most guards a manifest declares.
    static let maximumGuards = 64

    /// The D-Bus specification's well-known name: 2+ dot-separated elements of `[A-Za-z0-9_-]`, none empty or
    /// starting with a digit, at most 255 bytes.
    static func isWellKnownBusName(_ name: String) -> Bool {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 255, elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return element.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
        }
    }
}
