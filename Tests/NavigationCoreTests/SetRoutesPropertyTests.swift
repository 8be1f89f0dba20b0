import Foundation
import Testing

@testable import NavigationCore

/// The laws of `setRoutes`, for random route arrays from random windows:
/// `setRoutes(routes)` changes nothing (no version bump), and after a successful `setRoutes(R)` the routes
/// equal `R`; a valid `R` always succeeds, an invalid one fails and changes nothing; the steps replayed on
/// the state before give the state after.
///
/// One run uses a fixed seed, the other a random one that it prints; `SETROUTES_SEED=<n>` replays a run.
struct SetRoutesPropertyTests {
    static let iterations = 10_000

    @Test func lawsHoldFromAFixedSeed() {
        Self.check(seed: 0x5E7_A0_7E5)
    }

    @Test func lawsHoldFromAPrintedRandomSeed() {
        let seed = ProcessInfo.processInfo.environment["SETROUTES_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("SetRoutesPropertyTests seed \(seed) (replay: SETROUTES_SEED=\(seed) swift test --filter SetRoutesPropertyTests)")
        Self.check(seed: seed)
    }

    /// SplitMix64: small, fast and the same on every platform, so a seed replays exactly.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let screens = ["a", "b", "c"]
    static let paramChoices: [[String: String]] = [[:], ["id": "1"], ["id": "2"], ["id": "1", "edit": "true"]]

    static func check(seed: UInt64) {
        var rng = Generator(state: seed)
        var failures = 0
        var changed = 0
        var unchanged = 0
        for iteration in 0..<iterations where failures < 3 {
            guard let window = try? startWindow(&rng) else { continue }
            let stack: ModelID? = Bool.random(using: &rng) && Int.random(in: 0..<5, using: &rng) == 0
                ? tabStack(in: window, &rng) : nil
            let start = stack ?? window.rootID
            let current = window.routes(startingAt: start)
            let target = targetRoutes(from: current, &rng)
            let valid = isValid(target, baseHasStack: baseHasStack(window, start: start), basePresents: window.canPresent(start))
            let before = window.snapshot()
            let version = window.version
            let tree = window.debugTree
            var context: String { "seed \(seed) iteration \(iteration): \(text(current)) → \(text(target)) (stack \(String(describing: stack)))\n\(tree())" }
            do throws(NavigationError) {
                let event = try window.execute(.setRoutes(target, stack: stack.map(ModelReference.id)))
                var ok = valid && window.routes(startingAt: start) == target && window.verifyPresenterIndex()
                if target == current { ok = ok && event.isNoOp && window.version == version }
                if event.isNoOp { unchanged += 1 } else { changed += 1 }
                if !event.isNoOp {
                    let after = window.snapshot()
                    var structure = NavigationStepTests.Structure(before)
                    for step in event.steps { structure.apply(step) }
                    let kept = Set(before.models.map(\.id)).intersection(after.models.map(\.id))
                    ok = ok && structure.restricted(to: kept) == NavigationStepTests.Structure(after).restricted(to: kept)
                }
                if !ok {
                    failures += 1
                    Issue.record("\(context): got \(text(window.routes(startingAt: start))), valid \(valid)")
                }
            } catch {
                if valid || window.snapshot() != before || window.version != version {
                    failures += 1
                    Issue.record("\(context): \(error), valid \(valid)")
                }
            }
        }
        // Not vacuous: most arrays change the window, and many give its routes back.
        #expect(changed > iterations / 3, "seed \(seed): \(changed) changes")
        #expect(unchanged > iterations / 10, "seed \(seed): \(unchanged) unchanged")
    }

    /// A window of one of three bases (tabs of stacks, a stack, a switched screen without a stack) after a few
    /// random pushes, presentations, alerts, tab selections and dismissals.
    static func startWindow(_ rng: inout Generator) throws -> NavigationWindow {
        let base: ModelSpec
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: base = .stacked(.screen("root"))
        case 1: base = .switched(.screen("plain"))
        default:
            base = .tabs(
                [
                    TabSpec(id: "home", title: "Home", model: .stack([.screen("home")])),
                    TabSpec(id: "settings", title: "Settings", model: .stack([.screen("settings")])),
                ], selected: Bool.random(using: &rng) ? "home" : "settings")
        }
        let window = try NavigationWindow(root: base)
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            let screen = ModelSpec.screen(screens.randomElement(using: &rng) ?? "a", params: paramChoices.randomElement(using: &rng) ?? [:])
            let command: NavigationCommand
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3: command = .stackAppend(screen)
            case 4: command = .present(.sheet(screen))
            case 5: command = .present(.sheet(.stacked(screen)))
            case 6: command = .present(.fullScreenCover(Bool.random(using: &rng) ? screen : .stacked(screen)))
            case 7: command = .present(.alert(DialogContent(title: "t")))
            case 8: command = .tabsSelectItem(Bool.random(using: &rng) ? "home" : "settings")
            default: command = .dismiss
            }
            _ = try? window.execute(command)
        }
        return window
    }

    /// The stack of one of the tabs, when the root is a tab container.
    static func tabStack(in window: NavigationWindow, _ rng: inout Generator) -> ModelID? {
        guard case .tabs(let tabs, _) = window.model(window.rootID)?.content else { return nil }
        return tabs.randomElement(using: &rng)?.model
    }

    /// The current routes as they are, or a prefix of them with a random tail, or random routes.
    static func targetRoutes(from current: [Route], _ rng: inout Generator) -> [Route] {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...2: return current
        case 3...6:
            let keep = Int.random(in: 0...current.count, using: &rng)
            return Array(current.prefix(keep)) + randomRoutes(&rng, count: Int.random(in: 0...3, using: &rng))
        default: return randomRoutes(&rng, count: Int.random(in: 0...6, using: &rng))
        }
    }

    /// A short form of routes for failure messages: `push a{id=1}`, `sheet+nav b`.
    static func text(_ routes: [Route]) -> String {
        routes.map { route in
            let params = route.params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            return "\(route.style)\(route.withNavigation ? "+nav" : "") \(route.screen)" + (params.isEmpty ? "" : "{\(params)}")
        }.joined(separator: ", ")
    }

    static func randomRoutes(_ rng: inout Generator, count: Int) -> [Route] {
        (0..<count).map { _ in
            let screen = screens.randomElement(using: &rng) ?? "a"
            let params = paramChoices.randomElement(using: &rng) ?? [:]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...5: return .push(screen, params: params)
            case 6...8: return .sheet(screen, params: params, withNavigation: Bool.random(using: &rng))
            default: return .cover(screen, params: params, withNavigation: Bool.random(using: &rng))
            }
        }
    }

    /// Whether the branch's base layer has a stack (the windows here have at most one per layer).
    static func baseHasStack(_ window: NavigationWindow, start: ModelID) -> Bool {
        var current: ModelID? = start
        while let id = current, let step = window.branchStep(at: id) {
            if step.kind == .stack { return true }
            current = step.child
        }
        return false
    }

    /// Every push sits on a layer with a stack: the base layer's, or a presentation `withNavigation`; a first
    /// presentation needs a base that may present (a tab's stack may not: its tab container presents).
    static func isValid(_ routes: [Route], baseHasStack: Bool, basePresents: Bool) -> Bool {
        var hasStack = baseHasStack
        for (index, route) in routes.enumerated() {
            if route.isPresented {
                if !basePresents && !routes[..<index].contains(where: \.isPresented) { return false }
                hasStack = route.withNavigation
            } else if !hasStack {
                return false
            }
        }
        return true
    }
}
