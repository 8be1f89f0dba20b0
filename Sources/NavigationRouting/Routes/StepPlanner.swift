import NavigationCore

/// Splits a big route-view change into one-step states a limited renderer can animate.
///
/// Some toolkits animate only one push or one presentation per update. Given the start routes
/// `S`, the target routes `E` and the renderer's ``Capabilities``, ``steps(from:to:capabilities:)``
/// returns states `S0 … Sn` with `Sn == E`:
///
/// 1. `d` = first index where the route *styles* differ (``Route/hasSameStyle(as:)``; screens are
///    not compared), or `min(|S|, |E|)`. `p` = first index `≥ d` where `S` is presented, else `|S|`.
/// 2. `S0 = E[..<d] + S[d...]`: a content-only relabel, always emitted (even when equal to `S`).
/// 3. Dismiss while the last state is longer than `p`: with ``Capabilities/multiDismiss`` one step
///    straight to `E[..<d]`; otherwise one step per presentation layer (drop the trailing pushes and
///    the presented route beneath them). Because `d ≤ p`, both end at or below `p`.
/// 4. Pop: if the last state is longer than `d`, one step to exactly `E[..<d]` (only pushes remain
///    between `d` and `p`).
/// 5. Add `E[d...]` one route per step. With ``Capabilities/pushesInOne`` a *push* replaces the
///    previous step (that step plus the push) instead of adding one — whatever produced the
///    previous step (a dismissal, the pop, a push or a presentation) — except that `S0` is never
///    replaced. Presentations always take their own step.
///
/// ```swift
/// StepPlanner.steps(from: [], to: [.push("a"), .push("b")])
/// // [[], [.push("a")], [.push("a"), .push("b")]]
/// StepPlanner.steps(from: [], to: [.push("a"), .push("b")], capabilities: .pushesInOne)
/// // [[], [.push("a"), .push("b")]]
/// ```
public enum StepPlanner {
    /// What the renderer can do in a single update.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        /// Creates a set from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The renderer can dismiss several presentation layers (and pop) in one update.
        public static let multiDismiss = Capabilities(rawValue: 1 << 0)
        /// The renderer can apply several pushes in one update.
        public static let pushesInOne = Capabilities(rawValue: 1 << 1)
    }

    /// Plans the states from `start` to `target`.
    ///
    /// Edge cases: identical `start` and `target` give `[start]`; the result is never empty, its
    /// first element is `S0` and its last is `target`. No state but `S0` equals the one before it.
    ///
    /// - Parameters:
    ///   - start: the current route view `S`.
    ///   - target: the wanted route view `E`.
    ///   - capabilities: what the renderer can do in one update.
    /// - Returns: the states `S0 … Sn` to apply in order; `Sn == target`.
    public static func steps(
        from start: [Route],
        to target: [Route],
        capabilities: Capabilities = []
    ) -> [[Route]] {
        let common = min(start.count, target.count)
        let d = (0..<common).first { !start[$0].hasSameStyle(as: target[$0]) } ?? common
        let p = (d..<start.count).first { start[$0].isPresented } ?? start.count
        let kept = Array(target[..<d])

        var states = [kept + start[d...]]
        var last: [Route] { states[states.count - 1] }

        // Dismiss: every state past p ends in presentation layers above index p.
        while last.count > p {
            if capabilities.contains(.multiDismiss) {
                states.append(kept)
            } else {
                let layer = last.lastIndex(where: \.isPresented) ?? p
                states.append(Array(last[..<layer]))
            }
        }

        // Pop: what is left between d and p is pushes only.
        if last.count > d {
            states.append(kept)
        }

        // Add.
        for route in target[d...] {
            let next = last + [route]
            if capabilities.contains(.pushesInOne) && !route.isPresented && states.count > 1 {
                states[states.count - 1] = next
            } else {
                states.append(next)
            }
        }
        return states
    }

    /// An upper bound of the route entries (the sum of the states' lengths) that planning from `start`
    /// to `target` produces; O(|start| + |target|), without planning.
    public static func routeEntryBound(
        from start: [Route], to target: [Route], capabilities: Capabilities = []
    ) -> Int {
        let common = min(start.count, target.count)
        let d = (0..<common).first { !start[$0].hasSameStyle(as: target[$0]) } ?? common
        let p = (d..<start.count).first { start[$0].isPresented } ?? start.count
        // S0, one state per presentation layer being dismissed, the pop, then one per added route
        // (with pushesInOne only presentations take a state of their own, plus one for pushes after each).
        let layers = capabilities.contains(.multiDismiss) ? 1 : start[p...].filter(\.isPresented).count
        let added = target[d...]
        let adds = capabilities.contains(.pushesInOne) ? 2 * added.filter(\.isPresented).count + 1 : added.count
        let states = 2 + layers + adds
        return states * max(start.count, target.count, 1)
    }

    /// `capabilities`, or with ``Capabilities/pushesInOne`` added, whichever first keeps the plan within
    /// `maxRouteEntries` (``routeEntryBound(from:to:capabilities:)``); `nil` when neither does.
    public static func boundedCapabilities(
        from start: [Route], to target: [Route], capabilities: Capabilities, maxRouteEntries: Int
    ) -> Capabilities? {
        if routeEntryBound(from: start, to: target, capabilities: capabilities) <= maxRouteEntries { return capabilities }
        let combined = capabilities.union(.pushesInOne)
        if routeEntryBound(from: start, to: target, capabilities: combined) <= maxRouteEntries { return combined }
        return nil
    }
}
