import Foundation
import Testing

/// A bounded pass of `navsession-fuzz --misbehaving-provider` (Docs/fuzzing-dbus.md): a guard provider that
/// answers the demo's `account` guard at random, slowly or never, unregisters, re-registers and drops its
/// connection, and a second connection that owns marks and sometimes leaves. The fuzzer's checks hold (a
/// reply to every call, no `Failed`, the daemon alive), its end check changes every window with the provider
/// gone, and the provider was actually asked. A fixed seed and a random one (printed for replay).
enum MisbehavingProviderPass {
    static let fixedSeed: UInt64 = 20_261_127
    static let callsPerPass = 3_000
    /// A pass takes 4-10 s in a debug build (slow and never-answered questions wait out the demo's 500 ms
    /// deadline); past this it is killed and fails.
    static let deadline: Duration = .seconds(50)

    /// The summary's `guard provider: questions=N` (nil when the line is missing).
    static func questions(in output: String) -> Int? {
        guard let range = output.range(of: "guard provider: questions=") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    static func pass(seed: UInt64) async throws {
        let output = try await FuzzBinary.pass(
            seed: seed, calls: callsPerPass, deadline: deadline, arguments: ["--misbehaving-provider"])
        let asked = try #require(questions(in: output), "no provider line in the summary:\n\(output)")
        #expect(asked > 0, "the provider was never asked: the pass did not reach a covered screen\n\(output)")
        #expect(output.contains("end check: ") && !output.contains("stuck window"), "\(output)")
    }
}

/// The passes run in `FuzzPassTests`, one after the other with its other passes (`.serialized`), so that
/// no two fuzz passes load the machine at once.
extension FuzzPassTests {
    @Test func fixedSeedPassWithAMisbehavingProvider() async throws {
        try await MisbehavingProviderPass.pass(seed: MisbehavingProviderPass.fixedSeed)
    }

    @Test func randomSeedPassWithAMisbehavingProvider() async throws {
        let seed = UInt64.random(in: 0 ... .max)
        print("FuzzPassTests.randomSeedPassWithAMisbehavingProvider: seed=\(seed) (replay: navsession-fuzz --seed \(seed) --calls \(MisbehavingProviderPass.callsPerPass) --misbehaving-provider)")
        try await MisbehavingProviderPass.pass(seed: seed)
    }
}
