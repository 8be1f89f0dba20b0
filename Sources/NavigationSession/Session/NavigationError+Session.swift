import NavigationCore

/// Human messages for every ``NavigationError`` case (their D-Bus names are mapped by the service).
extension NavigationError {
    /// A one-line human message naming the models involved.
    public var message: String {
        switch self {
        case .unknownModel(let id): "no model \(id) in the window"
        case .detachedModel(let id): "model \(id) was removed earlier in the same batch"
        case .savedModel(let id, let container, let screen):
            "model \(id) is in the branch switched model \(container) keeps for '\(screen)' (suspended): switch "
                + "back to '\(screen)' to use it"
        case .noStack(let id): "no stack at or above model \(id)"
        case .alreadyAtStackRoot(let stack): "stack \(stack) is already at its root"
        case .emptyPath(let stack): "a stack path cannot be empty" + (stack.map { " (stack \($0))" } ?? "")
        case .notInStack(let id, let stack): "model \(id) is not an element of stack \(stack)"
        case .duplicateElement(let id): "model \(id) appears twice in the new path"
        case .invalidCount(let count): "count \(count) must be at least 1"
        case .noPresenter(let id): "no model can present from model \(id)"
        case .slotOccupied(let presenter, let occupant): "model \(presenter) already presents model \(occupant)"
        case .presenterIsLeaf(let id): "model \(id) is an alert or dialog; dismiss it before presenting more"
        case .unknownPresentationKind(let kind): "unknown presentation kind '\(kind)'"
        case .cannotPresent(let screen): "'\(screen)' sits where it cannot present"
        case .cannotPresentOn(let id, let screen):
            "model \(id) ('\(screen)') cannot present: it is a stack element, a tab or a custom container's child"
        case .transitionNotEligible(let transition, let from, let to):
            "transition '\(transition)' is not eligible from '\(from)' to '\(to)' (the manifest's transitions.eligible)"
        case .invalidBrowserURL(_, let reason): "invalid browser URL: \(reason)"
        case .alreadyPresenting(let model, let presented, let screen):
            "model \(model) already presents model \(presented) ('\(screen)'); give replace to dismiss it and present the new one"
        case .nothingToDismiss(let id): "nothing to dismiss from model \(id)"
        case .nothingToGoBack(let id):
            "nothing to go back from model \(id): no route, no alert or dialog, and no tab to go back to"
        case .nothingToGoForward(let requested, let available):
            available == 0
                ? "nothing to go forward to: the forward list is empty (a push or present clears it)"
                : "cannot go forward \(requested) routes: the forward list holds \(available)"
        case .routeNotFound(let what): "no route of the active branch matches \(what)"
        case .notInsidePresentation(let id): "model \(id) is not inside a presentation"
        case .cannotHide(let id): "model \(id) is neither a presented stack's root nor a pushed element"
        case .noTabs(let id): "no tab container at or above model \(id)"
        case .unknownTab(let tabs, let tab, let available):
            "tab container \(tabs) has no tab '\(tab)'"
                + (Spelling.closest(to: tab, in: available).map { "; did you mean '\($0)'?" } ?? "")
        case .noSwitchedModel(let id): "no switched model at or above model \(id)"
        case .invalidSpec(let text): "invalid model spec: \(text)"
        case .invalidURL(let url): "'\(url)' is not an absolute URL"
        case .invalidEffect(let text): "invalid effect: \(text)"
        case .emptyBatch: "the batch is empty"
        case .batchCommandFailed(let index, let inner):
            "command \(index): \(inner.message); nothing was applied"
        case .wrongKind(let id, let expected): "model \(id) is not a \(expected)"
        case .notPresented(let id): "model \(id) is not presented"
        case .indexOutOfRange(let stack, let index, let count):
            "index \(index) does not pop stack \(stack) of \(count) elements (stale report?)"
        case .unknownAction(let alert, let action): "model \(alert) has no action '\(action)'"
        case .windowClosed: "the window is closed"
        case .invalidSnapshot(let text): "invalid snapshot: \(text)"
        case .limitsExceeded(let text): text
        case .actionUnavailable(let action, let presenter, let inner):
            "the dialog's action '\(action)' could not run from model \(presenter), which would present it: \(inner.message)"
        case .routeFailed(let index, let inner): "route \(index): \(inner.message)"
        case .unknownScreen(let screen, let suggestion):
            "the manifest declares no screen '\(screen)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownTag(let tag): "no model carries tag '\(tag.prefix(64))'"
        case .duplicateTag(let tag, let existing): "model \(existing) already carries tag '\(tag.prefix(64))'; tags are unique in a window"
        case .screenNotInStack(let screen, let stack): "stack \(stack) has no element showing '\(screen.prefix(64))'"
        case .entryRefused(let screen, let state, let actual):
            "'\(screen.prefix(64))' requires state '\(state.prefix(64))' and the window shows "
                + (actual.map { "'\($0.prefix(64))'" } ?? "no state")
        case .prevented(let model, let reason, let dialog, let owner):
            "model \(model) is protected (\(reason.prefix(200))) by \(owner.isEmpty ? "the session" : owner); nothing was applied"
                + (dialog.map { "; dialog '\($0.prefix(64))' asks the user" } ?? "")
        case .denied(let name, let reason): "guard '\(name)' denied the change: \(reason.prefix(512))"
        case .decisionPending(let name): "guard '\(name)' has not decided yet"
        case .undecided(let change): "the change (window version \(change.version)) waits for a guard's decision"
        case .noContainer(let id): "no custom container at or above model \(id)"
        case .unknownChild(let container, let child, let count):
            "container \(container) has no child \(child.prefix(80)) (it has \(count) children)"
        case .unknownScheduled(let id): "no scheduled batch '\(id.prefix(64))' in the window"
        case .duplicateScheduled(let id): "a scheduled batch '\(id.prefix(64))' is already waiting in the window"
        case .handlerDepthExceeded(let message, let depth):
            "handlers of message '\(message.prefix(64))' send messages nested deeper than \(depth); nothing was applied"
        case .handlerCycle(let message, let model):
            "the handler of message '\(message.prefix(64))' at model \(model) sent it back to itself (a cycle); nothing was applied"
        case .notPermitted(let reason): "\(reason.prefix(512)); nothing was applied"
        }
    }
}
