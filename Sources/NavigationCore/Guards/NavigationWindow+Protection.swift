/// Protected models (Docs/guards.md, "Protected models"): marks set and removed inside a change, and the check
/// every change passes before it commits.
extension NavigationWindow {
    /// Runs `protect`: marks `model` (default: `origin`) for `owner`.
    func protect(
        _ model: ModelReference?, reason: String, dialog: String?, owner: String?, from origin: Node
    ) throws(NavigationError) {
        let node = try model.map { reference throws(NavigationError) in try attachedNode(try resolve(reference)) } ?? origin
        let limits = configuration.limits
        try limits.checkText(reason, "protect's reason")
        if let dialog { try limits.checkName(dialog, "protect's dialog") }
        if let owner { try limits.checkName(owner, "protect's owner") }
        let mark = Protection(reason: reason, dialog: dialog, owner: owner ?? "")
        try checkOwner(of: node, caller: owner)
        setProtection(node, mark, journal: true)
    }

    /// Runs `unprotect`: removes the mark of `model` (default: `origin`); not marked: no change.
    func unprotect(_ model: ModelReference?, owner: String?, from origin: Node) throws(NavigationError) {
        let node = try model.map { reference throws(NavigationError) in try attachedNode(try resolve(reference)) } ?? origin
        guard node.protection != nil else { return }
        try checkOwner(of: node, caller: owner)
        setProtection(node, nil, journal: true)
    }

    /// Only the client owning a mark may change it; a change made by no client (`caller == nil`: in process,
    /// the session's own clean-up) may change any.
    private func checkOwner(of node: Node, caller: String?) throws(NavigationError) {
        guard let mark = node.protection, let caller, mark.owner != caller else { return }
        // No dialog: the user has nothing to confirm when another client may not touch a mark.
        throw .prevented(model: node.id, reason: mark.reason, dialog: nil, owner: mark.owner)
    }

    /// Sets a model's mark, keeping ``protectedCount``; journaled unless undoing.
    func setProtection(_ node: Node, _ mark: Protection?, journal: Bool) {
        if journal {
            tx.undo.append(.protection(node, node.protection))
            tx.markModified(node.id)
        }
        if mark == nil { marked.remove(node.id) } else { marked.insert(node.id) }
        let delta = (mark == nil ? 0 : 1) - (node.protection == nil ? 0 : 1)
        node.protection = mark
        if delta != 0, let parent = parentNode(node) { bubbleMarks(from: parent, delta) }
        marksRevision &+= 1
    }

    /// Throws ``NavigationError/prevented(model:reason:dialog:owner:)`` when the change would finish or suspend a
    /// protected model that `waiving` does not name. Called only when some model is marked; O(size of the change).
    func checkProtections(_ plan: CommitPlan, waiving: Set<ModelID>) throws(NavigationError) {
        for node in plan.removed where node.started {
            if let mark = node.protection, !waiving.contains(node.id) { throw Self.prevented(node.id, mark) }
        }
        for node in plan.suspended {
            if let mark = node.protection, !waiving.contains(node.id) { throw Self.prevented(node.id, mark) }
        }
    }

    static func prevented(_ id: ModelID, _ mark: Protection) -> NavigationError {
        .prevented(model: id, reason: mark.reason, dialog: mark.dialog, owner: mark.owner)
    }

    /// The marked models of the window, in id order. O(marks).
    public var protections: [(model: ModelID, protection: Protection)] {
        guard !marked.isEmpty else { return [] }
        return marked.sorted().compactMap { id in nodes[id]?.protection.map { (id, $0) } }
    }

    /// The marks as JSON (the `Protected` property): `[{"dialog":…,"model":12,"owner":":1.42","reason":…}]`.
    /// Built once per set of marks: the service reads it after every change.
    public var protectionsJSON: String {
        guard !marked.isEmpty else { return "[]" }
        if let cached = cachedProtectionsJSON, cached.revision == marksRevision { return cached.json }
        let json = buildProtectionsJSON()
        cachedProtectionsJSON = (marksRevision, json)
        return json
    }

    private func buildProtectionsJSON() -> String {
        var out = "["
        for (index, entry) in protections.enumerated() {
            if index > 0 { out += "," }
            out += "{"
            if let dialog = entry.protection.dialog { out += #""dialog":"# + JSONString.literal(dialog) + "," }
            out += #""model":\#(entry.model.rawValue),"owner":"# + JSONString.literal(entry.protection.owner)
            out += #","reason":"# + JSONString.literal(entry.protection.reason) + "}"
        }
        return out + "]"
    }

    /// Whether removing or suspending the subtree of `node` would touch a mark (the dry-run-free rule the
    /// abilities use). Free when no model is marked.
    func subtreeIsProtected(_ node: Node) -> Bool {
        // The subtree's mark count, kept by link, unlink and every mark set or removed. O(1).
        protectedCount > 0 && marks(in: node) > 0
    }
}
