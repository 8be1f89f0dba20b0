import NavigationCore
/// A screen to show: its name and string parameters, as a NavigationCore model needs them.
///
/// In a route declaration the parameter values are templates (`{"id": "{id}"}`); in a
/// ``DeepLinkPlan`` they are the substituted values. Screen names are never templates.
///
/// JSON form: `{"screen":"detail","params":{"id":"{id}"}}`; `params` defaults to empty.
public struct ScreenSpec: Sendable, Hashable, Codable {
    /// The screen name (e.g. `detail`).
    public var screen: String
    /// The screen's parameters.
    public var params: [String: String]

    /// Describes a screen.
    ///
    /// - Parameters:
    ///   - screen: the screen name.
    ///   - params: its parameters (templates in a declaration).
    public init(_ screen: String, params: [String: String] = [:]) {
        self.screen = screen
        self.params = params
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case screen, params }

    /// Decodes `{"screen":…,"params":{…}}`; `params` may be omitted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        screen = try container.decode(String.self, forKey: .screen)
        params = try container.decodeIfPresent([String: String].self, forKey: .params) ?? [:]
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }
}
