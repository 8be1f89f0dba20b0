import NavigationRouting
import NavigationCore

/// What a window's renderer can do in one update; decides how deep-link jumps are split into steps.
///
/// JSON: `{"multiDismiss":false,"pushesInOne":true}`; both default to `false`.
public struct RendererCapabilities: Hashable, Sendable, Codable {
    /// The renderer can dismiss several presentation layers in one update.
    public var multiDismiss: Bool
    /// The renderer can push several screens in one update.
    public var pushesInOne: Bool

    /// Creates capabilities; the default can do neither.
    public init(multiDismiss: Bool = false, pushesInOne: Bool = false) {
        self.multiDismiss = multiDismiss
        self.pushesInOne = pushesInOne
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case multiDismiss, pushesInOne }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        multiDismiss = try c.decodeIfPresent(Bool.self, forKey: .multiDismiss) ?? false
        pushesInOne = try c.decodeIfPresent(Bool.self, forKey: .pushesInOne) ?? false
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    /// The options that shape a change's ``NavigationCore/NavigationStep``s.
    public var steps: NavigationStep.Capabilities {
        var result: NavigationStep.Capabilities = []
        if multiDismiss { result.insert(.multiDismiss) }
        if pushesInOne { result.insert(.pushesInOne) }
        return result
    }

    /// The step planner's option set.
    public var planner: StepPlanner.Capabilities {
        var result: StepPlanner.Capabilities = []
        if multiDismiss { result.insert(.multiDismiss) }
        if pushesInOne { result.insert(.pushesInOne) }
        return result
    }
}
