import NavigationCore

/// Why the daemon starts: Session1 `RestoreReason`, the manifest's `restore` policy key, and
/// the SaveRestore portal's `restore-reason` (`PRISTINE` 0, `LAUNCH` 1, `RECOVER` 2, `RESTORE` 3).
public enum RestoreReason: String, Hashable, Sendable, CaseIterable, Codable {
    /// No previous state (a fresh session, or the portal's `PRISTINE`).
    case pristine
    /// The previous run stopped cleanly; the user started the application again.
    case launch
    /// The previous run did not stop cleanly (SIGKILL, a crash, a power loss).
    case recover
    /// The session manager (or the portal) asks to restore a saved session.
    case restore

    /// The reason the SaveRestore portal's `restore-reason` (`u`) names, or nil for a value it does not define.
    public init?(portalCode: UInt32) {
        switch portalCode {
        case 0: self = .pristine
        case 1: self = .launch
        case 2: self = .recover
        case 3: self = .restore
        default: return nil
        }
    }
}

/// What comes back at start for one ``RestoreReason`` (the manifest's `restore.<reason>`).
public enum RestorePolicy: String, Hashable, Sendable, CaseIterable, Codable {
    /// Every window exactly as it was (the behaviour before the policy existed; the default).
    case everything
    /// Every window, with the presentations of its active branch dismissed (`dismissAll`).
    case withoutPresentations
    /// Every window's scene again, at its entry state (a fresh window of the same scene replaces it).
    case entryStates
    /// No window: the saved windows are closed.
    case nothing
}

/// The manifest's top-level `restore` (Docs/manifest.md, "Restore"): a policy per reason and the crash-loop guard.
///
/// ```json
/// "restore": {"launch": "everything", "recover": "withoutPresentations", "restore": "everything",
///             "pristine": "nothing", "crashLoop": {"uncleanStops": 3, "withinSeconds": 60}}
/// ```
/// Every key is optional; a reason not named restores everything; without `crashLoop` there is no guard.
public struct RestoreDeclaration: Hashable, Sendable, Codable {
    /// The crash-loop guard: `uncleanStops` unclean stops in a row, each within `withinSeconds` of the first,
    /// start the daemon clean with the previous state set aside.
    public struct CrashLoop: Hashable, Sendable, Codable {
        /// Unclean stops in a row that trip the guard (1…100; default 3).
        public var uncleanStops: Int
        /// The time window in seconds they must fall in (1…86 400; default 60).
        public var withinSeconds: Int

        public init(uncleanStops: Int = 3, withinSeconds: Int = 60) {
            self.uncleanStops = uncleanStops
            self.withinSeconds = withinSeconds
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case uncleanStops, withinSeconds }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            uncleanStops = try c.decodeIfPresent(Int.self, forKey: .uncleanStops) ?? 3
            withinSeconds = try c.decodeIfPresent(Int.self, forKey: .withinSeconds) ?? 60
            guard (1...100).contains(uncleanStops) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .uncleanStops, in: c, debugDescription: "uncleanStops must be 1…100 (got \(uncleanStops))")
            }
            guard (1...86_400).contains(withinSeconds) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .withinSeconds, in: c, debugDescription: "withinSeconds must be 1…86400 (got \(withinSeconds))")
            }
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        }
    }

    /// The policy per reason; a reason absent here restores ``RestorePolicy/everything``.
    public var policies: [RestoreReason: RestorePolicy]
    /// The crash-loop guard, when the manifest declares one (`"crashLoop": {}` takes the defaults). Off otherwise:
    /// a daemon killed again and again (the fault tests, `navsession-load fault --kills`) keeps every change.
    public var crashLoop: CrashLoop?

    public init(policies: [RestoreReason: RestorePolicy] = [:], crashLoop: CrashLoop? = nil) {
        self.policies = policies
        self.crashLoop = crashLoop
    }

    /// What comes back when the daemon starts for `reason`.
    public func policy(for reason: RestoreReason) -> RestorePolicy { policies[reason] ?? .everything }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var policies: [RestoreReason: RestorePolicy] = [:]
        for reason in RestoreReason.allCases {
            let key = Key(reason.rawValue)
            guard let name = try c.decodeIfPresent(String.self, forKey: key) else { continue }
            guard let policy = RestorePolicy(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: "unknown restore policy '\(name)' (one of: \(RestorePolicy.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            policies[reason] = policy
        }
        self.policies = policies
        crashLoop = try c.decodeIfPresent(CrashLoop.self, forKey: Key("crashLoop"))
        try StrictKeys.check(decoder, allowed: RestoreReason.allCases.map(\.rawValue) + ["crashLoop"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for reason in RestoreReason.allCases {
            if let policy = policies[reason] { try c.encode(policy.rawValue, forKey: Key(reason.rawValue)) }
        }
        try c.encodeIfPresent(crashLoop, forKey: Key("crashLoop"))
    }
}
