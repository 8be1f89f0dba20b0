/// Which window numbers a live session hands out and which a saved state may name.
///
/// Numbers are never reused, so a state naming a number near the top would leave nothing to hand out:
/// one journal line with window 4294967294, or a damaged one whose digits were read back as 2^32, once
/// made every later `OpenWindow` fail. Saved states may therefore name only the lower half; a larger
/// number is an impossible value, set aside as corrupt like any other, and after any restore at least
/// 2^31 − 1 numbers remain. A session would have to open 2^31 windows (68 years at one a second) to
/// write a number above the stored range; its files would then be set aside at the next start, logged.
public enum WindowNumbering {
    /// The highest number a live session hands out (`WindowNumber.max` stays unused, so counting on
    /// never overflows).
    public static let highest: WindowNumber = .max - 1

    /// The highest window number a snapshot or journal may name (2^31); `nextWindow` may be one more.
    public static let highestStored: WindowNumber = 1 << 31

    /// Whether `number` may appear in a saved state as a window's number.
    static func isStorable(_ number: WindowNumber) -> Bool { number >= 1 && number <= highestStored }
}
