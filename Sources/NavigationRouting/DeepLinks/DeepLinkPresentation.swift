import NavigationCore
/// A sheet or cover to present, optionally hosting a stack with pre-pushed screens.
///
/// Presentations in a destination are stacked in order: each is presented on top of the one
/// before. `push` is allowed only with `withNavigation` (the presented model is then a stack whose
/// root is `root` and whose path continues with `push`).
///
/// JSON form: `{"style":"sheet","withNavigation":true,"root":{"screen":"edit"},"push":[…]}`;
/// `withNavigation` defaults to `false`, `push` to empty.
public struct DeepLinkPresentation: Sendable, Hashable, Codable {
    /// How the screen is presented.
    public enum Style: String, Sendable, Hashable, Codable {
        /// A sheet.
        case sheet
        /// A full-screen cover.
        case cover
    }

    /// Sheet or cover.
    public var style: Style
    /// Whether the presented model is a stack.
    public var withNavigation: Bool
    /// The presented screen (the stack's root when `withNavigation`).
    public var root: ScreenSpec
    /// Screens pushed inside the presented stack, in order.
    public var push: [ScreenSpec]

    /// Describes a presentation.
    ///
    /// - Parameters:
    ///   - style: sheet or cover.
    ///   - withNavigation: whether it hosts a stack.
    ///   - root: the presented screen.
    ///   - push: screens pushed inside it (needs `withNavigation`).
    public init(_ style: Style, withNavigation: Bool = false, root: ScreenSpec, push: [ScreenSpec] = []) {
        self.style = style
        self.withNavigation = withNavigation
        self.root = root
        self.push = push
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case style, withNavigation, root, push }

    /// Decodes the JSON form; `withNavigation` and `push` may be omitted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        style = try container.decode(Style.self, forKey: .style)
        withNavigation = try container.decodeIfPresent(Bool.self, forKey: .withNavigation) ?? false
        root = try container.decode(ScreenSpec.self, forKey: .root)
        push = try container.decodeIfPresent([ScreenSpec].self, forKey: .push) ?? []
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }
}
