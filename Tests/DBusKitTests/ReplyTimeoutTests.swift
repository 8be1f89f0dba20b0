import Testing

@testable import DBusKit

/// A call's timeout as libdbus takes it (whole milliseconds in an `Int32`): every duration maps to one, the extremes
/// included, without trapping.
struct ReplyTimeoutTests {
    @Test(arguments: [
        (Duration.milliseconds(1500), Int32(1500)),
        (.seconds(25), 25_000),
        (.microseconds(300), 1),
        (.zero, 1),
        (.milliseconds(-1), 1),
        (.seconds(Int64.max), .max),
        (.seconds(Int64.min), 1),
        (.seconds(3_000_000), .max),
    ])
    func aDurationBecomesMillisecondsWithinLibdbusRange(duration: Duration, milliseconds: Int32) {
        #expect(duration.libdbusMilliseconds == milliseconds)
    }
}
