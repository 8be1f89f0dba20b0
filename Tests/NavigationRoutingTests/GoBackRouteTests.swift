import NavigationCore
import Testing

@testable import NavigationRouting

/// `goBack` and `goBackTo` against the route view (`GetRoutes`) over random windows: going back removes exactly
/// the top route, and going back to index i leaves routes 0…i.
struct GoBackRouteTests {
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// A window built by random pushes and presentations (no dialogs, no tab switches), at least one route.
    static func randomWindow(_ random: inout Random) throws -> NavigationWindow {
        let window = try NavigationWindow(root: .switched(.tabs(["a", "b"].map {
            TabSpec(id: $0, title: $0, model: .stacked(.screen($0)))
        }, policy: TabPolicy(backBehavior: .history))))
        for index in 0..<(1 + random.next(8)) {
            switch random.next(4) {
            case 0: try window.execute(.present(.sheet(.stacked(.screen("s\(index)")))))
            case 1: try window.execute(.present(.fullScreenCover(.screen("c\(index)"))))
            default: _ = try? window.execute(.stackAppend(.screen("p\(index)")))
            }
        }
        return window
    }

    @Test func goBackRemovesExactlyTheTopRoute() throws {
        for seed in UInt64(1)...300 {
            var random = Random(state: seed)
            let window = try Self.randomWindow(&random)
            let before = window.routes
            guard !before.isEmpty else { continue }
            try window.execute(.goBack)
            #expect(window.routes == Array(before.dropLast()), "seed \(seed)")
        }
    }

    @Test func goBackToAnIndexKeepsTheRoutesUpToIt() throws {
        for seed in UInt64(1)...300 {
            var random = Random(state: seed)
            let window = try Self.randomWindow(&random)
            let before = window.routes
            guard !before.isEmpty else { continue }
            let index = random.next(before.count)
            try window.execute(.goBackTo(.index(index)))
            #expect(window.routes == Array(before[...index]), "seed \(seed), index \(index)")
        }
    }

    @Test func goBackToRootLeavesNoRoute() throws {
        for seed in UInt64(1)...100 {
            var random = Random(state: seed)
            let window = try Self.randomWindow(&random)
            try window.execute(.goBackToRoot)
            #expect(window.routes.isEmpty, "seed \(seed)")
        }
    }

    @Test func dismissAllLeavesOnlyTheBaseLayersPushes() throws {
        for seed in UInt64(1)...100 {
            var random = Random(state: seed)
            let window = try Self.randomWindow(&random)
            let before = window.routes
            try window.execute(.dismissAll)
            let pushes = before.prefix { $0.style == .push }
            #expect(window.routes == Array(pushes), "seed \(seed)")
        }
    }
}
