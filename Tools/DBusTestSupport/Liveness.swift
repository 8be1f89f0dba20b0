import Foundation

/// Liveness bounds for the tests' waits: how long a test waits for an *event* (a signal, a process printing
/// or exiting, a name being owned, a window reaching a state) before it gives up and fails instead of hanging.
///
/// A bound is never a latency assertion. An event that comes arrives as soon as it happens, whatever the
/// bound, so a generous bound costs nothing on a green run; it only decides how long a red run takes to say
/// so. Short bounds made the suite flaky on a loaded machine (2 cores with eight busy loops, CI neighbours),
/// so every bound a test gives passes through ``bound(_:)``:
///
/// ```swift
/// let changed = await changes.first(within: Liveness.bound(.seconds(10)))   // 60 s, × NAVSESSION_TEST_PATIENCE
/// ```
///
/// - ``bound(_:)`` is `max(d, 60 s) × patience`: never shorter than ``floor`` (at patience 1), longer when the
///   test asked for more (a tool run of two minutes stays two minutes).
/// - ``patience`` is the environment variable `NAVSESSION_TEST_PATIENCE`, a positive number of at most 1000
///   (`2`, `0.5`, `1e1`); unset, empty or anything else (`0`, `-1`, `abc`, `inf`) is ignored and counts as 1.
///   Raise it on a slow or overloaded machine (`NAVSESSION_TEST_PATIENCE=3 ./scripts/test --stress 5`); a
///   value below 1 shortens every bound, which shows how much slack the waits have.
///
/// Not for a wait that checks that something does *not* happen ("no signal within 1 s"): such a window is
/// the length of the check, and scaling it only makes the suite slower. Keep those short and unscaled, and
/// never conclude anything from a positive event arriving late.
public enum Liveness {
    /// The name of the environment variable that scales every bound.
    public static let environmentVariable = "NAVSESSION_TEST_PATIENCE"

    /// The shortest bound at patience 1: a wait for an event is never shorter than this.
    public static let floor: Duration = .seconds(60)

    /// The largest patience taken; larger values are ignored like invalid ones (a bound must stay finite).
    public static let maximumPatience: Double = 1000

    /// The factor every bound is multiplied by: `NAVSESSION_TEST_PATIENCE` when it is a finite number in
    /// (0, ``maximumPatience``], else 1. Read once per process.
    public static let patience: Double = patience(from: ProcessInfo.processInfo.environment[environmentVariable])

    /// The liveness bound for a wait a test would give `duration`: `max(duration, floor) × patience`.
    public static func bound(_ duration: Duration) -> Duration {
        max(duration, floor) * patience
    }

    /// The patience a value of `NAVSESSION_TEST_PATIENCE` means (1 for nil and for anything invalid).
    public static func patience(from value: String?) -> Double {
        guard let text = value?.trimmingCharacters(in: .whitespaces), let number = Double(text), number.isFinite,
            number > 0, number <= maximumPatience
        else { return 1 }
        return number
    }
}
