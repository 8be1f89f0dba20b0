import NavigationCore

/// Walking one window's active branch through its public graph accessors.
///
/// A *layer* is the part of the branch between two presentations: it starts at the window root or
/// at a presented model and descends through container children only — the selected tab, the
/// switched model, a stack element, the selected child of a custom container. Presentations start the
/// next layer. Every helper costs O(1) per model visited.
enum ActiveBranch {
    /// Which child of a stack a walk descends into.
    enum StackChild {
        /// The last element: the branch as it is shown now.
        case last
        /// Element 0: the branch as it is once every stack on it is popped to its root.
        case root
    }

    /// The container child the branch continues into, or `nil` at the end of the layer.
    ///
    /// - Parameters:
    ///   - model: the model the walk is at.
    ///   - stackChild: which stack element to descend into.
    ///   - tab: the tab to follow instead of the selected one (for a tab container).
    /// - Returns: the next model, never `model` itself.
    static func child(of model: ModelState, stackChild: StackChild = .last, tab: String? = nil) -> ModelID? {
        let next: ModelID?
        switch model.content {
        case .screen, .alert, .confirmationDialog:
            next = nil
        case .stack(let path, _):
            next = stackChild == .last ? path.last?.model : path.first?.model
        case .tabs(let tabs, let selected):
            let wanted = tab ?? selected
            next = tabs.first { $0.id == wanted }?.model
        case .switched(let switched):
            next = switched
        case .custom(_, let children, let selected):
            next = children.indices.contains(selected) ? children[selected] : children.last
        }
        return next == model.id ? nil : next
    }

    /// The presentation style of a model sitting in a slot, else `nil`.
    static func style(of model: ModelState) -> PresentationStyle? {
        if case .presented(let style) = model.attachment { return style }
        return nil
    }

    /// Whether a presentation style is an alert or a confirmation dialog (never a route).
    static func isDialog(_ style: PresentationStyle) -> Bool {
        switch style {
        case .alert, .confirmationDialog: true
        case .sheet, .fullScreenCover, .custom: false
        }
    }
}
