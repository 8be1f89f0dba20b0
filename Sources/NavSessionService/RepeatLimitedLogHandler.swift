import Logging
import Synchronization

/// The one mechanism that rate-limits the daemon's log: a notice, warning or error repeated only a few times is
/// written, so one client repeating a failing request cannot fill the log (256 failed effects of one batch once
/// wrote 217 KB; 3 200 scheduled batches failing at their deadline once wrote 3 200 lines).
///
/// Within ``interval`` of a line's first occurrence, occurrence 1 is written, then only occurrences 10,
/// 100, 1 000, … each with `(N more like this suppressed)`, the count of copies not written since the last
/// one. The first occurrence after the interval is written again, with the count still unreported, and
/// starts a new interval. A line is a copy of another when level, message and metadata are the same. Lines of
/// one message whose metadata differs (a window, an id, a client) are limited together too, more loosely: the
/// first ``burst`` of them are written, then only the 100th, 1 000th, …; info and debug lines pass unchanged.
///
/// ```swift
/// let logger = Logger(label: "navsessiond") { label in
///     RepeatLimitedLogHandler(wrapping: StreamLogHandler.standardError(label: label))
/// }
/// ```
public struct RepeatLimitedLogHandler: LogHandler {
    /// How long an interval of one repeated line lasts.
    public static let interval: Duration = .seconds(60)
    /// Lines of one message (any metadata) written freely within an interval.
    static let burst = 10
    /// Distinct lines tracked at most; beyond it, lines whose interval is over are forgotten first.
    static let trackedLines = 1024

    private struct Repeats {
        var start: ContinuousClock.Instant
        var occurrences = 0
        var suppressed = 0
    }

    private final class Tracker: Sendable {
        let lines = Mutex<[String: Repeats]>([:])
    }

    private var base: any LogHandler
    private let tracker = Tracker()

    /// Wraps `base`, which writes every line let through.
    public init(wrapping base: any LogHandler) { self.base = base }

    public var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        guard event.level >= .notice else { return base.log(event: event) }
        let metadata = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let template = "\(event.level) \(event.message)"
        let key = template + " " + metadata.joined(separator: " ")
        let suppressed: Int? = tracker.lines.withLock { lines in
            let now = ContinuousClock.now
            if lines.count >= Self.trackedLines - 1, lines[key] == nil || lines["\u{0}" + template] == nil {
                lines = lines.filter { now - $0.value.start < Self.interval }
                if lines.count >= Self.trackedLines - 1 { lines = [:] }
            }
            func counted(_ key: String) -> Repeats {
                var repeats = lines[key] ?? Repeats(start: now)
                if now - repeats.start >= Self.interval {
                    repeats.start = now
                    repeats.occurrences = 0
                }
                repeats.occurrences += 1
                return repeats
            }
            let copy = counted(key)
            var message = counted("\u{0}" + template)
            lines[key] = copy
            defer { lines["\u{0}" + template] = message }
            guard Self.isWritten(occurrence: copy.occurrences),
                message.occurrences <= Self.burst || Self.isWritten(occurrence: message.occurrences)
            else {
                message.suppressed += 1
                return nil
            }
            let count = message.suppressed
            message.suppressed = 0
            return count
        }
        guard let suppressed else { return }
        guard suppressed > 0 else { return base.log(event: event) }
        var summarised = event
        summarised.message = "\(event.message) (\(suppressed) more like this suppressed)"
        base.log(event: summarised)
    }

    /// 1, 10, 100, 1 000, …
    static func isWritten(occurrence: Int) -> Bool {
        var power = 1
        while power < occurrence { power *= 10 }
        return power == occurrence
    }
}
