/// Validating and applying what the renderer reports the user did.
extension NavigationWindow {
    /// Applies a renderer report as one change.
    ///
    /// ```swift
    /// try window.report(.poppedTo(stack: stackID, index: 0))
    /// try window.report(.alertActionChosen(alert: alertID, action: "delete"))
    /// ```
    /// - Throws: ``NavigationError/unknownModel(_:)``, ``NavigationError/wrongKind(_:expected:)``,
    ///   ``NavigationError/indexOutOfRange(stack:index:count:)``, ``NavigationError/notPresented(_:)``,
    ///   ``NavigationError/unknownTab(tabs:tab:)``, ``NavigationError/unknownAction(alert:action:)``,
    ///   ``NavigationError/windowClosed``, or an error of an action's commands. Nothing changes on failure.
    /// - Parameter waiving: protected models the report may finish anyway (a window closing because its owner
    ///   left; Docs/guards.md).
    @discardableResult
    public func report(
        _ report: RendererReport, checkingEntry: Bool = true, waiving: Set<ModelID> = []
    ) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        return try transact(cause: .report(report), animated: false, checkingEntry: checkingEntry, waiving: waiving) {
            () throws(NavigationError) in
            switch report {
            // What the user popped or dismissed is remembered for `goForward`.
            case .poppedTo, .dismissedInteractively, .selectedTab, .selectedChild:
                try recordingForward { () throws(NavigationError) in try handle(report) }
            case .alertActionChosen, .collapsed, .windowClosed:
                try handle(report)
            }
        }
    }

    /// The user chose `action` of the dialog `alert` that was presented in place of a refused change: the dialog
    /// goes and `batch` (the refused change) runs with the marks of `waiving` waived, as one change; the
    /// action's own commands do not run. With an empty batch the dialog only goes (the change no longer applies).
    /// - Throws: as ``report(_:waiving:)`` for the dialog, and the batch's errors; nothing changes on failure.
    @discardableResult
    public func reapply(
        closing alert: ModelID, action: String, batch: [BatchCommand], waiving: Set<ModelID>
    ) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        let report = RendererReport.alertActionChosen(alert: alert, action: action)
        return try transact(cause: .report(report), animated: false, waiving: waiving) { () throws(NavigationError) in
            let node = try attachedNode(alert)
            guard node.kind == .alert || node.kind == .confirmationDialog, let content = node.dialog else {
                throw .wrongKind(alert, expected: "alert or confirmationDialog")
            }
            guard case .presented = node.attachment, let presenter = parentNode(node) else { throw .notPresented(alert) }
            guard content.actions.contains(where: { $0.id == action }) else { throw .unknownAction(alert: alert, action: action) }
            clearSlot(presenter)
            tx.messages.append(DeliveredMessage(recipient: presenter.id, sender: alert, message: .actionChosen(action)))
            for (index, entry) in batch.enumerated() {
                do throws(NavigationError) {
                    try run(entry.command, from: try entry.from.map(resolve) ?? activeModelID)
                } catch {
                    throw batch.count == 1 ? error : .batchCommandFailed(index: index, error)
                }
            }
        }
    }

    private func handle(_ report: RendererReport) throws(NavigationError) {
        switch report {
        case .poppedTo(let stackID, let index):
            let stack = try attachedStack(stackID)
            guard index >= 0, index < stack.path.count - 1 else {
                throw .indexOutOfRange(stack: stackID, index: index, count: stack.path.count)
            }
            truncatePath(stack, keeping: index + 1)
        case .dismissedInteractively(let id):
            let node = try attachedNode(id)
            guard case .presented = node.attachment, let presenter = parentNode(node) else { throw .notPresented(id) }
            clearSlot(presenter)
        case .selectedTab(let tabsID, let tab):
            let tabs = try attachedNode(tabsID)
            guard tabs.kind == .tabs else { throw .wrongKind(tabsID, expected: "tabs") }
            guard tabs.tabs.contains(where: { $0.id == tab }) else {
                throw .unknownTab(tabs: tabsID, tab: tab, available: tabs.tabs.map(\.id))
            }
            selectOrReselect(tabs, tab)
        case .alertActionChosen(let alertID, let actionID):
            let alert = try attachedNode(alertID)
            guard alert.kind == .alert || alert.kind == .confirmationDialog, let content = alert.dialog else {
                throw .wrongKind(alertID, expected: "alert or confirmationDialog")
            }
            guard case .presented = alert.attachment, let presenter = parentNode(alert) else {
                throw .notPresented(alertID)
            }
            guard let action = content.actions.first(where: { $0.id == actionID }) else {
                throw .unknownAction(alert: alertID, action: actionID)
            }
            // The slot is cleared before the handler runs so that a handler presenting something lands on
            // the presenter, not on the vanishing alert; observers only see the committed end state.
            clearSlot(presenter)
            tx.messages.append(DeliveredMessage(recipient: presenter.id, sender: alertID, message: .actionChosen(actionID)))
            guard action.reapply else {
                for command in action.commands { try run(command, from: presenter.id) }
                return
            }
            // A re-applying action's commands run only when its refused change is not kept (a restart dropped it);
            // commands that no longer run from here close the dialog alone, as a kept change that no longer applies
            // does (they were not checked when it was presented).
            let point = savepoint()
            do throws(NavigationError) {
                for command in action.commands { try run(command, from: presenter.id) }
            } catch {
                rollback(to: point)
            }
        case .selectedChild(let containerID, let child):
            let container = try attachedNode(containerID)
            guard case .custom = container.kind else { throw .wrongKind(containerID, expected: "custom container") }
            select(try childIndex(.model(.id(child)), in: container), in: container)
        case .collapsed(let splitID, let collapsed):
            let split = try attachedNode(splitID)
            guard split.isSplit else { throw .wrongKind(splitID, expected: "split container") }
            setCollapsed(collapsed, of: split)
        case .windowClosed:
            tx.closing = true
            isClosed = true
        }
    }
}
