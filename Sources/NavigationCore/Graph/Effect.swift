/// Something the window asks its environment to do; effects are not state.
///
/// Effects are queued per window in order and stay queued until ``NavigationWindow/drainEffects()``,
/// so none is lost when no renderer is listening.
public enum Effect: Hashable, Sendable {
    /// Open a new window of `scene`.
    case openWindow(scene: String, params: [String: String])
    /// Close window `id` (`nil` = the window that enqueued it).
    case dismissWindow(id: String?)
    /// Open a URL: a deep link if it uses the application's scheme, else announced to a launcher.
    case openURL(String)
    /// An application-defined trigger.
    case trigger(name: String, payload: String)
}

/// An effect together with the model whose command enqueued it and the version it belongs to.
public struct QueuedEffect: Hashable, Sendable, Codable {
    /// The effect.
    public var effect: Effect
    /// The executing model of the command that enqueued it.
    public var source: ModelID
    /// The window version of the change that enqueued it.
    public var version: Int
}

extension Effect: Codable {
    enum CodingKeys: String, CodingKey { case effect, scene, params, window, url, name, payload }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try c.decode(String.self, forKey: .effect)
        switch tag {
        case "openWindow":
            self = .openWindow(
                scene: try c.decode(String.self, forKey: .scene),
                params: try c.decodeIfPresent([String: String].self, forKey: .params) ?? [:])
        case "dismissWindow": self = .dismissWindow(id: try c.decodeIfPresent(String.self, forKey: .window))
        case "openURL": self = .openURL(try c.decode(String.self, forKey: .url))
        case "trigger":
            self = .trigger(
                name: try c.decode(String.self, forKey: .name),
                payload: try c.decodeIfPresent(String.self, forKey: .payload) ?? "")
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .effect, in: c,
                debugDescription: "unknown effect \"\(tag)\"; expected openWindow, dismissWindow, openURL or trigger")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .openWindow(let scene, let params):
            try c.encode("openWindow", forKey: .effect)
            try c.encode(scene, forKey: .scene)
            try c.encode(params, forKey: .params)
        case .dismissWindow(let id):
            try c.encode("dismissWindow", forKey: .effect)
            try c.encodeIfPresent(id, forKey: .window)
        case .openURL(let url):
            try c.encode("openURL", forKey: .effect)
            try c.encode(url, forKey: .url)
        case .trigger(let name, let payload):
            try c.encode("trigger", forKey: .effect)
            try c.encode(name, forKey: .name)
            try c.encode(payload, forKey: .payload)
        }
    }
}
