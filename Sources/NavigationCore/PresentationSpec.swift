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

    /// Creates a presentation from its parts; prefer the static factories.
    public init(style: PresentationStyle, model: ModelSpec) {
        self.style = style
        self.model = model
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
