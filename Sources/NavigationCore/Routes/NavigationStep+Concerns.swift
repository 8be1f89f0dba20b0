/// Which steps concern one model, for clients that follow a model (Window1 `FollowModel`).
extension NavigationStep {
    /// Whether this step changes `model` itself: its params or title (`update`) or appearance, its stack path (`push`, `pop`,
    /// `replacePath` of its stack, or its own push or pop), what it presents or its own presentation
    /// (`present`, `dismiss`), its selected tab or child, its split's columns, its tab-bar rule, its switched content, or the root it is. O(size of the step).
    public func concerns(_ model: ModelID) -> Bool {
        switch self {
        case .push(let stack, let models, _), .pop(let stack, let models, _): stack == model || models.contains(model)
        case .replacePath(let stack, _, _): stack == model
        case .present(let presenter, let presented, _, _, _), .dismiss(let presenter, let presented, _, _):
            presenter == model || presented == model
        case .selectTab(let tabs, _, _): tabs == model
        case .switchContent(let container, let from, let to, _, _): container == model || from == model || to == model
        case .replaceRoot(let from, let to): from == model || to == model
        case .update(let updated): updated == model
        case .appearance(let changed, _): changed == model
        case .tabBarRule(let stack, _, _): stack == model
        case .selectChild(let container, let child, let previous):
            container == model || child == model || previous == model
        case .columnVisibility(let container, _, _), .collapse(let container), .expand(let container): container == model
        case .rendererState(let changed, _): changed == model
        }
    }
}
