import NavigationCore
/// Which window a deep link navigates in: one of a scene's windows, or a new one.
///
/// JSON form: `{"scene":"main","open":"existing","params":{…}}`; `open` defaults to `existing`,
/// `params` (templates, used only when a window is opened) to empty.
public struct WindowTarget: Sendable, Hashable, Codable {
    /// How the window is chosen.
    public enum Policy: String, Sendable, Hashable, Codable {
        /// Navigate in an existing window of the scene (the session picks the most recently
        /// focused one); open one with `params` if the scene has none.
        case existing
        /// Always open a new window of the scene with `params`.
        case new
    }

    /// The scene name.
    public var scene: String
    /// Existing window or new window.
    public var open: Policy
    /// Parameters for a newly opened window (templates in a declaration).
    public var params: [String: String]

    /// Describes a window choice.
    ///
    /// - Parameters:
    ///   - scene: the scene name.
    ///   - open: existing (default) or new.
    ///   - params: parameters for a new window.
    public init(scene: String, open: Policy = .existing, params: [String: String] = [:]) {
        self.scene = scene
        self.open = open
        self.params = params
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case scene, open, params }

    /// Decodes the JSON form; `open` and `params` may be omitted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        scene = try container.decode(String.self, forKey: .scene)
        open = try container.decodeIfPresent(Policy.self, forKey: .open) ?? .existing
        params = try container.decodeIfPresent([String: String].self, forKey: .params) ?? [:]
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }
}
