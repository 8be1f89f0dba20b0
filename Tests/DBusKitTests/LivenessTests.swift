import DBusTestSupport
import Testing

/// The tests' liveness bounds (Tools/DBusTestSupport/Liveness.swift): generous, scaled by
/// `NAVSESSION_TEST_PATIENCE`, invalid values ignored.
struct LivenessTests {
    @Test func patienceIsAPositiveFiniteNumberElseOne() {
        #expect(Liveness.patience(from: nil) == 1)
        #expect(Liveness.patience(from: "") == 1)
        #expect(Liveness.patience(from: "2") == 2)
        #expect(Liveness.patience(from: " 2.5 ") == 2.5)
        #expect(Liveness.patience(from: "0.5") == 0.5)
        #expect(Liveness.patience(from: "1e1") == 10)
        for invalid in ["0", "-1", "abc", "inf", "nan", "1e9", "2s"] {
            #expect(Liveness.patience(from: invalid) == 1, "\(invalid)")
        }
    }

    @Test func aBoundIsAtLeastTheFloorAndScalesWithPatience() {
        let patience = Liveness.patience
        #expect(Liveness.bound(.milliseconds(300)) == Liveness.floor * patience)
        #expect(Liveness.bound(.seconds(10)) == .seconds(60) * patience)
        #expect(Liveness.bound(.seconds(120)) == .seconds(120) * patience)
    }
}
