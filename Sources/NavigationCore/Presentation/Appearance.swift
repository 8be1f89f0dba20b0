/// How a screen's chrome is shown (SwiftUICoordinator's `RouteAppearance`, SwiftUI's
/// `navigationBarBackButtonHidden`, `toolbar(.hidden)`, `navigationBarTitleDisplayMode`).
///
/// One value serves three roles (Docs/navigation-core.md, "Appearance"):
/// - declared per screen in the manifest (`screens[].appearance`), the screen's default;
/// - a model's override (`ModelSpec.appearance`, ``NavigationCommand/setAppearance(model:_:)``), partial: only the
///   keys it sets;
/// - resolved for a model: built-in defaults ← the screen's declaration ← the model's override, every key set
///   (``resolved(over:)``). A renderer reads the resolved value from the state and the `appearance` step.
///
/// JSON: `{"backButton":false,"navigationBar":true,"tabBar":false,"titleDisplayMode":"inline"}`; every key may be
/// omitted, unknown keys and wrong types are errors.
public struct Appearance: Hashable, Sendable {
    /// Whether the navigation bar shows a back button (when there is something to go back to).
    public var backButton: Bool?
    /// Whether the navigation bar (header) is shown.
    public var navigationBar: Bool?
    /// Whether the tab bar (tab switcher) is shown while this model is the active model of its tab.
    public var tabBar: Bool?
    /// How the title is shown in the navigation bar.
    public var titleDisplayMode: TitleDisplayMode?

    /// The built-in defaults: everything shown, title mode `automatic`.
    public static let standard = Appearance(
        backButton: true, navigationBar: true, tabBar: true, titleDisplayMode: .automatic)

    /// The JSON keys, in the order the JSON writers use (sorted).
    public static let keys = ["backButton", "navigationBar", "tabBar", "titleDisplayMode"]

    /// Creates an appearance; `nil` keys are not set (inherit).
    public init(
        backButton: Bool? = nil, navigationBar: Bool? = nil, tabBar: Bool? = nil, titleDisplayMode: TitleDisplayMode? = nil
    ) {
        self.backButton = backButton
        self.navigationBar = navigationBar
        self.tabBar = tabBar
        self.titleDisplayMode = titleDisplayMode
    }

    /// Whether no key is set.
    public var isEmpty: Bool { backButton == nil && navigationBar == nil && tabBar == nil && titleDisplayMode == nil }

    /// This appearance's keys laid over `base` (keys set here win). O(1).
    public func merged(over base: Appearance) -> Appearance {
        Appearance(
            backButton: backButton ?? base.backButton, navigationBar: navigationBar ?? base.navigationBar,
            tabBar: tabBar ?? base.tabBar, titleDisplayMode: titleDisplayMode ?? base.titleDisplayMode)
    }

    /// What applies to a model with this override whose screen declares `declared`: every key set. O(1).
    public func resolved(over declared: Appearance?) -> Appearance {
        merged(over: (declared ?? Appearance()).merged(over: .standard))
    }
}

/// How a navigation bar shows the title (SwiftUI's `NavigationBarItem.TitleDisplayMode`).
public enum TitleDisplayMode: String, Hashable, Sendable, CaseIterable, Codable {
    /// The platform decides (inherits from the previous screen on iOS).
    case automatic
    /// A small title in the bar.
    case inline
    /// A large title below the bar.
    case large
}

extension Appearance: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        self.init(
            backButton: try c.decodeIfPresent(Bool.self, forKey: "backButton"),
            navigationBar: try c.decodeIfPresent(Bool.self, forKey: "navigationBar"),
            tabBar: try c.decodeIfPresent(Bool.self, forKey: "tabBar"),
            titleDisplayMode: try c.decodeTagIfPresent(TitleDisplayMode.self, forKey: "titleDisplayMode"))
        try StrictKeys.check(decoder, allowed: Self.keys)
    }
    // Encoding is synthesized: each key present only when set.

    /// Appends the JSON object (sorted keys, only the keys set) to `out`.
    func appendJSON(to out: inout [UInt8]) {
        var object = DirectJSON.Object(&out)
        if let backButton {
            object.key("backButton", &out)
            out.append(contentsOf: (backButton ? "true" : "false").utf8)
        }
        if let navigationBar {
            object.key("navigationBar", &out)
            out.append(contentsOf: (navigationBar ? "true" : "false").utf8)
        }
        if let tabBar {
            object.key("tabBar", &out)
            out.append(contentsOf: (tabBar ? "true" : "false").utf8)
        }
        if let titleDisplayMode {
            object.key("titleDisplayMode", &out)
            _ = DirectJSON.appendString(titleDisplayMode.rawValue, to: &out)
        }
        object.close(&out)
    }
}
