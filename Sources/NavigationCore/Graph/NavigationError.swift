/// Every way a command, batch, report or snapshot can be rejected.
///
/// A thrown error always means nothing changed: no state, no version bump, no lifecycle message and no
/// effect. Cases carry the ids and names needed to explain the failure.
public indirect enum NavigationError: Error, Hashable, Sendable {
    /// No model with this id is in the window (never existed, or already finished).
    case unknownModel(ModelID)
    /// The model exists but was detached earlier in the same batch.
    case detachedModel(ModelID)
    /// The model is in a branch a switched container keeps (`container`, kept under `screen`): suspended,
    /// it accepts no command and no report until the container switches back to it.
    case savedModel(ModelID, container: ModelID, screen: String)
    /// Walking up from the model found no stack.
    case noStack(from: ModelID)
    /// `stackDropLast` on a stack that holds only its root.
    case alreadyAtStackRoot(stack: ModelID)
    /// `stackSetPath`/`stackMap` produced an empty path, or a spec declared an empty stack.
    case emptyPath(stack: ModelID?)
    /// A `stackSetPath` entry names a model that is not an element of the target stack.
    case notInStack(ModelID, stack: ModelID)
    /// A `stackSetPath` result names the same existing model twice.
    case duplicateElement(ModelID)
    /// A count argument was below one (e.g. `stackDropLast(0)`).
    case invalidCount(Int)
    /// `present` found no model able to present (see the nearest-presenter rule).
    case noPresenter(from: ModelID)
    /// The presenter's slot is already filled (only possible for dialogs anchored with a `sourceID`).
    case slotOccupied(presenter: ModelID, occupant: ModelID)
    /// `present` with `on`: `model` already presents `presented` (showing `screen`); give `replace` to dismiss it
    /// and present the new one in the same change.
    case alreadyPresenting(model: ModelID, presented: ModelID, screen: String)
    /// `present` with `on`: the model (showing `screen`) cannot present: it is a stack element, a tab or a
    /// custom container's child (only the window's root, a switched container's model and presented models can).
    case cannotPresentOn(ModelID, screen: String)
    /// A command names `transition`, which the manifest declares eligible only between other screens than `from`
    /// (the screen shown before; `""` when none) and `to`.
    case transitionNotEligible(transition: String, from: String, to: String)
    /// A built-in `browser` presentation whose `url` is not an http or https URL the browser can show (`reason`).
    case invalidBrowserURL(String, reason: String)
    /// The nearest presenter is an alert or dialog, which is a leaf: dismiss it before presenting more.
    case presenterIsLeaf(ModelID)
    /// The custom presentation kind was not registered in ``WindowConfiguration``.
    case unknownPresentationKind(String)
    /// A spec placed a presentation on a model that may not present (a stack element or tab child).
    case cannotPresent(screen: String)
    /// `dismiss` found neither a presentation nor a pushed element to remove.
    case nothingToDismiss(from: ModelID)
    /// `goBack` found nothing to remove: no route on the active branch, no alert or dialog on top, and no tab
    /// the tab container's back behaviour goes to.
    case nothingToGoBack(from: ModelID)
    /// `goForward` asked for more routes than the forward list holds (none after a push or present, or before
    /// any back).
    case nothingToGoForward(requested: Int, available: Int)
    /// `goBackTo` found no route of the active branch matching what it looked for (the text names it).
    case routeNotFound(String)
    /// `dismissJustFromPresented` or a `presenter` message target outside any presentation.
    case notInsidePresentation(ModelID)
    /// `hide` from a model that is neither a presented stack's root nor a pushed element.
    case cannotHide(ModelID)
    /// Walking up from the model found no tab container.
    case noTabs(from: ModelID)
    /// The tab container has no tab with this id.
    case unknownTab(tabs: ModelID, tab: String, available: [String] = [])
    /// Walking up from the model found no switched container.
    case noSwitchedModel(from: ModelID)
    /// A model spec is malformed (no tabs, duplicate tab ids, unknown selected tab, duplicate action ids, …).
    case invalidSpec(String)
    /// `openURL` with a string that is not an absolute URL (`scheme:rest`, no whitespace).
    case invalidURL(String)
    /// An effect command with an empty scene name or window id.
    case invalidEffect(String)
    /// An empty batch; applying nothing would be a silent no-op.
    case emptyBatch
    /// A batch command failed; the batch was rolled back. `index` is zero-based.
    case batchCommandFailed(index: Int, NavigationError)
    /// A report or command needed a model of another kind (e.g. a stack for `poppedTo`).
    case wrongKind(ModelID, expected: String)
    /// A report says the user dismissed a model that is not sitting in a presentation slot.
    case notPresented(ModelID)
    /// A `poppedTo` report whose index does not pop anything (valid: `0 ..< count-1`).
    case indexOutOfRange(stack: ModelID, index: Int, count: Int)
    /// An action report names an action the alert or dialog does not have.
    case unknownAction(alert: ModelID, action: String)
    /// The window was closed by a `windowClosed` report; it accepts nothing any more.
    case windowClosed
    /// A snapshot failed validation; the text says which rule and which model.
    case invalidSnapshot(String)
    /// The change would exceed one of the window's ``GraphLimits``; nothing was applied.
    case limitsExceeded(String)
    /// A plain screen the application does not declare (``WindowConfiguration/screens``), with the
    /// declared screen closest to it when there is one.
    case unknownScreen(String, suggestion: String?)
    /// A dialog's action could not run from the model that would present the dialog (its commands were
    /// tried when the dialog was presented); carries the commands' own error.
    case actionUnavailable(action: String, presenter: ModelID, NavigationError)
    /// A `setRoutes` route could not be made (no stack for a push, no presenter for a sheet or cover, a
    /// screen the manifest does not declare, a limit); `index` is the route's zero-based index in the array.
    case routeFailed(index: Int, NavigationError)
    /// No model of the window carries this tag.
    case unknownTag(String)
    /// A new model's tag is already carried by another model of the window (`existing`); tags are unique.
    case duplicateTag(String, existing: ModelID)
    /// `bringToFront` found no element showing `screen` in the stack.
    case screenNotInStack(String, stack: ModelID)
    /// The change would start a model of `screen`, whose entry condition needs the window's switched root to
    /// show `state` after the change, and it shows `actual` (`nil`: the window has no switched root). The
    /// session turns this into a redirect and a pending navigation (Docs/guards.md); it reaches a caller
    /// only from a dry run (`Check`) or a report.
    case entryRefused(screen: String, state: String, actual: String?)
    /// The change would finish or suspend `model`, which carries a protection mark (or an ancestor of it
    /// would go), or it touches a mark `owner` holds: nothing was applied. With a `dialog`, the session
    /// presented that dialog instead (Docs/guards.md).
    case prevented(model: ModelID, reason: String, dialog: String?, owner: String)
    /// Walking up from the model found no custom container (`selectChild` without a `container`).
    case noContainer(from: ModelID)
    /// `selectChild` named a child the container does not have: an index out of range, or a model that is not
    /// one of its children (`child` names what was asked; the container has `count` children).
    case unknownChild(container: ModelID, child: String, count: Int)
    /// The provider of a guard (or the guard's `onAbsent`/`onTimeout`) refused the change (Docs/guards.md).
    case denied(guard: String, reason: String)
    /// The change needs the decision of `guard`'s provider before it can commit; the session layer asks and
    /// applies the change again with the answer (never reaches a D-Bus caller).
    case decisionPending(guard: String)
    /// The change enters or leaves a screen the window's ``CommitGate`` watches and its owner has not decided about
    /// it: nothing changed; the owner decides about `change` and, to let it commit, applies it again with
    /// ``CommitGate/decided`` set to it (never reaches a D-Bus caller).
    case undecided(CommitGate.Change)
    // Scheduled commands.
    /// `cancelScheduled` named no scheduled batch of the window (it ran, was cancelled, or never was).
    case unknownScheduled(String)
    /// `schedule` gave an id another scheduled batch of the window has.
    case duplicateScheduled(String)
    /// Manifest handlers sending messages nested deeper than ``NavigationWindow/maxHandlerDepth``.
    case handlerDepthExceeded(message: String, depth: Int)
    /// A manifest handler's commands sent, directly or not, the message it is handling back to a model that is
    /// already handling it (a cycle).
    case handlerCycle(message: String, model: ModelID)
    /// The client causing the change may not change this window (the session's window policy; `reason` says who
    /// may): nothing was applied.
    case notPermitted(String)
}
