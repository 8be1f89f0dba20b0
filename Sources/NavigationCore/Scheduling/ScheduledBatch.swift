#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens to a scheduled batch whose deadline passed while the daemon was not running (found overdue
/// when a saved session is restored).
public enum OverdueRule: String, Hashable, Sendable, Codable, CaseIterable {
    /// It runs as soon as the session is back (the default).
    case run
    /// It is dropped without running (a toast's dismissal that no longer matters).
    case drop
}

/// The `schedule` command's request: a batch to run later from the scheduling model.
///
/// JSON: `{"command":"schedule","afterMs":2000,"commands":[…],"id":"toast","overdue":"drop"}`. The window fills
/// in ``deadline`` (wall-clock milliseconds since the Unix epoch) when the change is applied, so the journal
/// holds the absolute deadline and a replay schedules the same one.
public struct ScheduleSpec: Hashable, Sendable {
    /// The caller's id; `nil`: the window assigns `s<n>`.
    public var id: String?
    /// The delay from now, in milliseconds (0 … ``GraphLimits/maxScheduleDelayMs``).
    public var afterMs: Int
    /// The batch to run; entries without `from` run from the scheduling model.
    public var commands: [BatchCommand]
    /// What happens when the deadline passed while the daemon was down.
    public var overdue: OverdueRule = .run
    /// The absolute deadline (ms since the Unix epoch); `nil` until the window fills it in.
    public var deadline: Int64?
    /// The client that scheduled the batch (its unique bus name), whose authority the batch carries when it runs
    /// (Docs/guards.md, "Whose authority a change carries"); the session sets it, whatever the JSON said.
    /// `nil`: the session's own (in process).
    public var author: String?
}

/// A batch waiting for its deadline in a window (listed in the window's state as `scheduled`).
public struct ScheduledBatch: Hashable, Sendable {
    /// The id (the caller's or `s<n>`), unique among the window's scheduled batches.
    public var id: String
    /// Wall-clock milliseconds since the Unix epoch.
    public var deadline: Int64
    /// The model that scheduled it: the batch runs from it, and is cancelled when it finishes.
    public var model: ModelID
    /// The batch.
    public var commands: [BatchCommand]
    /// What happens when the deadline passed while the daemon was down.
    public var overdue: OverdueRule = .run
    /// The client that scheduled it: the batch runs with that client's authority (its marks, its share).
    public var author: String?

    /// The batch as it runs: entries without `from` run from the scheduling model.
    public var batch: [BatchCommand] {
        commands.map { entry in
            var entry = entry
            if entry.from == nil { entry.from = .id(model) }
            return entry
        }
    }
}

/// The wall clock scheduled batches are measured with: milliseconds since the Unix epoch.
public enum WallClock {
    /// The system's real-time clock.
    public static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}

extension ScheduledBatch: Codable {
    static let keys = ["id", "deadline", "model", "commands", "overdue", "author"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        try StrictKeys.check(decoder, allowed: Self.keys)
        self.init(
            id: try c.decode(String.self, forKey: "id"), deadline: try c.decode(Int64.self, forKey: "deadline"),
            model: try c.decode(ModelID.self, forKey: "model"), commands: try c.decode([BatchCommand].self, forKey: "commands"),
            overdue: try c.decodeIfPresent(OverdueRule.self, forKey: "overdue") ?? .run,
            author: try c.decodeIfPresent(String.self, forKey: "author"))
    }
    // Encoding is synthesized: every key, `author` only when set (the project's encoder sorts the keys).
}

extension ScheduleSpec {
    /// Decodes `schedule`'s keys: `afterMs` (or a `deadline` written by the window), `commands`, `id`, `overdue`.
    init(from c: KeyedDecodingContainer<JSONKey>) throws {
        let deadline = try c.decodeInteger("deadline", in: 0...Int.max).map(Int64.init)
        let afterMs = try c.decodeInteger("afterMs", in: 0...Int.max)
        guard afterMs != nil || deadline != nil else {
            throw DecodingError.dataCorruptedError(forKey: "afterMs", in: c, debugDescription: "schedule needs \"afterMs\"")
        }
        let commands = try c.decode([BatchCommand].self, forKey: "commands")
        guard !commands.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: "commands", in: c, debugDescription: "schedule's commands are empty")
        }
        if commands.contains(where: { $0.command.schedules }) {
            throw DecodingError.dataCorruptedError(
                forKey: "commands", in: c, debugDescription: "a scheduled batch cannot schedule another (nested schedule)")
        }
        self.init(
            id: try c.decodeIfPresent(String.self, forKey: "id"), afterMs: afterMs ?? 0, commands: commands,
            overdue: try c.decodeIfPresent(OverdueRule.self, forKey: "overdue") ?? .run, deadline: deadline,
            author: try c.decodeIfPresent(String.self, forKey: "author"))
    }

    func encode(to c: inout KeyedEncodingContainer<JSONKey>) throws {
        try c.encode(afterMs, forKey: "afterMs")
        try c.encodeIfPresent(author, forKey: "author")
        try c.encode(commands, forKey: "commands")
        try c.encodeIfPresent(deadline, forKey: "deadline")
        try c.encodeIfPresent(id, forKey: "id")
        if overdue != .run { try c.encode(overdue, forKey: "overdue") }
    }
}

extension NavigationCommand {
    /// Whether this command is or contains a `schedule` (scheduled batches and manifest handlers may not).
    public var schedules: Bool {
        switch self {
        case .schedule: true
        case .sequence(let commands): commands.contains { $0.schedules }
        default: false
        }
    }

    /// Whether this command is or contains a `protect` (a scheduled batch that would set a mark).
    public var protects: Bool {
        switch self {
        case .protect: true
        case .sequence(let commands): commands.contains { $0.protects }
        default: false
        }
    }

    /// This command with every `schedule` in it given its absolute deadline (`now + afterMs`) when it has none.
    func fillingDeadline(now: Int64) -> NavigationCommand {
        switch self {
        case .schedule(var spec) where spec.deadline == nil:
            spec.deadline = CheckedNumber.adding(now, Int64(spec.afterMs))
            return .schedule(spec)
        case .sequence(let commands) where commands.contains(where: { $0.schedules }):
            return .sequence(commands.map { $0.fillingDeadline(now: now) })
        default:
            return self
        }
    }
}
