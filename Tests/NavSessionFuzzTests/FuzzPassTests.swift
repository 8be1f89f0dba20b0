import DBusTestSupport
import Foundation
import Testing

/// A bounded CI pass of `navsession-fuzz` against the real `navsessiond`: a fixed seed and a random one
/// (printed, so a failure can be replayed with `navsession-fuzz --seed N --calls M`), 10,000 calls each.
/// Each run starts its own private bus and daemon; the fuzzer's report (the seed, the failing call, the
/// reproduce line, the summary) becomes the test's failure message. Docs/fuzzing-dbus.md.
@Suite("navsession-fuzz bounded pass", .serialized)
struct FuzzPassTests {
    static let fixedSeed: UInt64 = 20_251_123
    static let callsPerPass = 10_000
    /// Each pass must end well within CI patience (a pass takes 20-50 s, depending on the load of the machine); a run past this is
    /// killed and fails the test. A healthy daemon takes about 20 s per pass in a debug build.
    static let deadline: Duration = .seconds(150)

    @Test func fixedSeedPass() async throws {
        try await FuzzBinary.pass(seed: Self.fixedSeed, calls: Self.callsPerPass, deadline: Self.deadline)
    }

    @Test func randomSeedPass() async throws {
        let seed = UInt64.random(in: 0 ... .max)
        print("FuzzPassTests.randomSeedPass: seed=\(seed) (replay: navsession-fuzz --seed \(seed) --calls \(Self.callsPerPass))")
        try await FuzzBinary.pass(seed: seed, calls: Self.callsPerPass, deadline: Self.deadline)
    }
}
