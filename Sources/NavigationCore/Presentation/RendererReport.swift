/// What the renderer reports the user did (§5); the window validates it before changing anything.
///
/// Apply with ``NavigationWindow/report(_:)``. Stale or impossible reports throw and change nothing.
public enum RendererReport: Hashable, Sendable {
    /// The user popped `stack` back to element `index` (valid range `0 ..< path.count - 1`).
    case poppedTo(stack: ModelID, index: Int)
    /// The user dismissed `model` interactively (swipe); it must sit in a presentation slot.
    case dismissedInteractively(ModelID)
    /// The user selected tab `tab` of `tabs`.
    case selectedTab(tabs: ModelID, tab: String)
    /// The user chose `action` of the alert or dialog `alert`: its slot is cleared, its commands run from
    /// the presenter, and the presenter receives ``NavigationMessage/actionChosen(_:)``.
    case alertActionChosen(alert: ModelID, action: String)
    /// The user closed the window: every model but the root finishes and the window refuses further input.
    case windowClosed
    /// The user selected `child` (a model id) of the custom container `container` (a segmented switcher).
    case selectedChild(container: ModelID, child: ModelID)
    /// The renderer shows the split `split` collapsed (a narrow window: its columns as one stack) or not.
    case collapsed(split: ModelID, collapsed: Bool)
}

/// Why a change happened.
public enum ChangeCause: Hashable, Sendable {
    /// An applied batch (a single `execute` is a batch of one).
    case commands([BatchCommand])
    /// A renderer report.
    case report(RendererReport)
    /// A whole state loaded with ``NavigationWindow/setState(_:)`` (Window1 `SetState`).
    case setState
    /// A scheduled batch whose deadline came (`id`), run from its scheduling model (`schedule` command).
    case scheduled(id: String, [BatchCommand])
    /// The change that made `version` undone: the window back in the state before it (Window1 `Undo`,
    /// ``NavigationWindow/restore(_:cause:budget:dryRun:)``).
    case undo(version: Int)
    /// The change that made `version` made again after an undo: the window in the state after it (Window1 `Redo`).
    case redo(version: Int)
    /// A model moved between windows with everything under it (Session1 `MoveModel`): the source window's change
    /// (the branch left) and the target's (it arrived) carry the same record. Boxed: the record is larger than every
    /// other cause, and a cause travels in every change event (inline, it would make every event larger to copy).
    indirect case moved(MoveRecord)
    /// The application's manifest changed (Session1 `ReloadManifest`, `SIGHUP`, a start with another manifest): models
    /// renamed, replaced or taken away as it declares (`{"reloaded":true}`).
    case reloaded
}
