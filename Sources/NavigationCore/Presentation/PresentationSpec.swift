/// What to put in a presentation slot: a style and the model spec to present.
///
/// ```swift
/// .present(.sheet(.stacked(.screen("compose")), detents: ["medium", "large"]))
/// .present(.alert(DialogContent(title: "Delete?", actions: [DialogAction(id: "ok", title: "OK")])))
/// ```
/// The style and content must agree: alerts carry alert content, dialogs dialog content, and no other
/// style may present alert or dialog content (``NavigationError/invalidSpec(_:)``).
public struct PresentationSpec: Hashable, Sendable {
    /// How the model is presented.
    public var style: PresentationStyle
    /// The model to create in the slot.
    public var model: ModelSpec
    /// The renderer transition it is presented (and later dismissed) with (`slide`, `zoom`, …); `nil` = the
    /// renderer's default for the style. Kept in the state and carried by the `present`/`dismiss` steps.
    public var transition: String?

    /// Creates a presentation from its parts; prefer the static factories.
    public init(style: PresentationStyle, model: ModelSpec, transition: String? = nil) {
        self.style = style
        self.model = model
        self.transition = transition
    }

    /// The same presentation with the renderer transition `name`.
    public func with(transition name: String?) -> PresentationSpec {
        var copy = self
        copy.transition = name
        return copy
    }

    /// The built-in in-app browser (SwiftUINavigation's `SFSafariNavigationModel`): the custom kind `browser`
    /// presenting the screen `browser` with the parameter `url`. JSON: `{"kind":"browser","url":"https://…"}`.
    /// The URL is checked (``browserURLProblem(_:)``) when the command is read and before the model is created.
    public static func browser(url: String) -> PresentationSpec {
        PresentationSpec(style: .custom(browserKind), model: ModelSpec(screen: browserKind, params: ["url": url]))
    }

    /// The built-in browser kind's name, which is also its screen's.
    public static let browserKind = "browser"

    /// The longest browser URL, in UTF-8 bytes.
    public static let maxBrowserURLBytes = 2048

    /// Why `url` cannot be shown by the built-in browser (`http` or `https`, a host, at most 2 048 bytes, no
    /// whitespace or control characters), or `nil`.
    public static func browserURLProblem(_ url: String) -> String? {
        if url.utf8.count > maxBrowserURLBytes {
            return "a browser URL is \(url.utf8.count) bytes; at most \(maxBrowserURLBytes)"
        }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) }) {
            return "a browser URL may not hold spaces or control characters"
        }
        let lower = url.lowercased()
        guard let rest = ["https://", "http://"].first(where: { lower.hasPrefix($0) }).map({ url.dropFirst($0.count) }) else {
            return "'\(url.prefix(64))' is not an http or https URL"
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty else { return "'\(url.prefix(64))' has no host" }
        return nil
    }

    /// Whether this is the built-in browser form (the `browser` kind presenting the `browser` screen).
    public var isBuiltInBrowser: Bool {
        guard case .custom(let name) = style, name == Self.browserKind, model.screen == Self.browserKind,
            case .screen = model.content
        else { return false }
        return true
    }

    /// The longest transition name, in UTF-8 bytes.
    public static let maxTransitionBytes = 64

    /// Why `name` is not a transition name (1 to 64 bytes of ASCII letters, digits, `-`, `_`, `.`), or `nil`.
    /// Checked when a command is decoded and again when it runs, before any work.
    public static func transitionProblem(_ name: String) -> String? {
        if name.isEmpty { return "a transition name is empty" }
        if name.utf8.count > maxTransitionBytes {
            return "transition name is \(name.utf8.count) bytes; at most \(maxTransitionBytes)"
        }
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
        return allowed ? nil : "transition \"\(name.prefix(64))\" may hold only ASCII letters, digits, '-', '_' and '.'"
    }

    /// A sheet with optional detents.
    public static func sheet(_ model: ModelSpec, detents: [String] = []) -> PresentationSpec {
        PresentationSpec(style: .sheet(detents: detents), model: model)
    }

    /// A full-screen cover.
    public static func fullScreenCover(_ model: ModelSpec) -> PresentationSpec {
        PresentationSpec(style: .fullScreenCover, model: model)
    }

    /// An alert; the presented leaf model gets screen name `alert`.
    public static func alert(_ content: DialogContent) -> PresentationSpec {
        PresentationSpec(style: .alert, model: ModelSpec(screen: "alert", content: .alert(content)))
    }

    /// A confirmation dialog; with a `sourceID` it is presented by the executing model itself.
    public static func confirmationDialog(_ content: DialogContent, sourceID: String? = nil) -> PresentationSpec {
        PresentationSpec(
            style: .confirmationDialog(sourceID: sourceID),
            model: ModelSpec(screen: "confirmationDialog", content: .confirmationDialog(content)))
    }

    /// An application-registered custom presentation kind (unregistered names fail on execution).
    public static func custom(_ name: String, _ model: ModelSpec) -> PresentationSpec {
        PresentationSpec(style: .custom(name), model: model)
    }

    /// The anchoring view id of a confirmation dialog, if any.
    public var sourceID: String? {
        if case .confirmationDialog(let sourceID) = style { return sourceID }
        return nil
    }
}
