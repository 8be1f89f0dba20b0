/// Moving a model with everything under it between windows, as operations on whole states (Session1 `MoveModel`):
/// ``detaching(_:activeModel:)`` splits a branch off a window's state, ``attaching(_:at:activeModel:)`` grafts it
/// into another's, ``window(holding:)`` makes a new window of it. Each is O(models of the states involved); the
/// windows then take the new states with ``NavigationWindow/restore(_:cause:budget:dryRun:)``.
extension WindowSnapshot {
    /// The state without model `id` and everything under it, and what left: for a pushed screen, the stack's path
    /// from it to the end (a stack suffix); for a tab, the tab (another tab is selected if it was); for a presented
    /// model, the presentation with its own presentations.
    ///
    /// The branch keeps its models' ids, params, titles, renderer state, marks, kept branches and params history;
    /// an opener outside it (`resultTo`) is forgotten. The batches its models scheduled go with it; the forward list
    /// goes with it when it held `activeModel`.
    /// - Throws: ``NavigationError/unknownModel(_:)``, ``NavigationError/detachedModel(_:)`` (in a kept branch),
    ///   ``NavigationError/invalidSpec(_:)``: the window's root, a stack's root (move the stack), the last tab, an
    ///   alert or dialog, a switched model or a custom container's child.
    public func detaching(_ id: ModelID, activeModel: ModelID?) throws(NavigationError) -> (remaining: WindowSnapshot, branch: MovedBranch) {
        var index: [ModelID: Int] = [:]
        for (position, model) in models.enumerated() { index[model.id] = position }
        guard let at = index[id] else { throw .unknownModel(id) }
        let moved = models[at]
        var ancestor = moved
        while let parent = ancestor.parent, let position = index[parent] {
            if case .saved = ancestor.attachment { throw .detachedModel(id) }
            ancestor = models[position]
        }
        guard let parentID = moved.parent, let parentAt = index[parentID] else {
            throw .invalidSpec("model \(id) is the window's root: it is the window (move what it holds)")
        }
        var parent = models[parentAt]
        let form: MovedBranch.Form
        let roots: [ModelID]
        switch moved.attachment {
        case .path(let position):
            guard case .stack(let path, let hides) = parent.content, position < path.count else {
                throw .invalidSnapshot("model \(id) is not in its stack's path")
            }
            guard position > 0 else {
                throw .invalidSpec("model \(id) is the root of stack \(parentID): move the stack, or what holds it")
            }
            let suffix = Array(path[position...])
            form = .stackSuffix(suffix)
            roots = suffix.map(\.model)
            parent.content = .stack(path: Array(path[..<position]), hidesTabBarWhenNotAtRoot: hides)
        case .tab(let tabID):
            guard case .tabs(let tabs, let selected) = parent.content, let position = tabs.firstIndex(where: { $0.id == tabID }) else {
                throw .invalidSnapshot("model \(id) is not among its container's tabs")
            }
            guard tabs.count > 1 else { throw .invalidSpec("model \(id) is the last tab of \(parentID): a tab container keeps one") }
            form = .tab(tabs[position])
            roots = [id]
            var rest = tabs
            rest.remove(at: position)
            // The neighbour a browser selects when the selected tab leaves: the next one, else the one before.
            let selection = selected == tabID ? rest[min(position, rest.count - 1)].id : selected
            parent.content = .tabs(rest, selected: selection)
            parent.tabState?.history.removeAll { $0 == tabID }
        case .presented(let style):
            guard moved.kind != .alert, moved.kind != .confirmationDialog else {
                throw .invalidSpec("model \(id) is an alert or a dialog: it stays with what it asks about")
            }
            form = .presented(style, transition: moved.transition)
            roots = [id]
            parent.presented = nil
        case .saved:
            throw .detachedModel(id)
        case .root, .switched, .custom:
            throw .invalidSpec(
                "model \(id) is \(moved.attachment.debugLabel) of \(parentID): a tab, a pushed screen (with those above it) "
                    + "or a presented model can move")
        }
        // Pre-order lists a parent before its children: one pass finds the branch.
        var members = Set(roots)
        var branchModels: [ModelState] = []
        var remaining: [ModelState] = []
        for var model in models {
            if members.contains(model.id) || model.parent.map(members.contains) == true {
                members.insert(model.id)
                branchModels.append(model)
            } else {
                if model.id == parentID { model = parent }
                remaining.append(model)
            }
        }
        let rootSet = Set(roots)
        for position in branchModels.indices {
            if rootSet.contains(branchModels[position].id) {
                branchModels[position].parent = nil
                branchModels[position].attachment = .root
                branchModels[position].transition = nil
            }
            if let opener = branchModels[position].resultTo, !members.contains(opener) { branchModels[position].resultTo = nil }
        }
        for position in remaining.indices {
            if let opener = remaining[position].resultTo, members.contains(opener) { remaining[position].resultTo = nil }
        }
        let holdsActive = activeModel.map(members.contains) ?? false
        var rest = WindowSnapshot(unchecked: version, nextModelID: nextModelID, root: root, models: remaining, isClosed: isClosed)
        rest.scheduled = scheduled.filter { !members.contains($0.model) }
        rest.nextScheduleNumber = nextScheduleNumber
        rest.forward = holdsActive ? [] : forward
        rest.rendererState = rendererState
        let branch = MovedBranch(
            form: form, roots: roots, models: branchModels, scheduled: scheduled.filter { members.contains($0.model) },
            forward: holdsActive ? forward : [])
        return (rest, branch)
    }

    /// Whether moving `id` takes the whole window: it is the window's root, or the root of the stack that is.
    public func movesWholeWindow(_ id: ModelID) -> Bool {
        guard let rootModel = model(root) else { return false }
        if id == root { return true }
        if case .stack(let path, _) = rootModel.content { return path.first?.model == id }
        return false
    }

    /// Everything the window holds, as a branch that goes onto another window's stack (the window then closes: a
    /// browser window whose only tab is dragged into another): a root stack's whole path, or a root screen. Its
    /// batches and forward list go with it.
    /// - Throws: ``NavigationError/invalidSpec(_:)`` when the root is another container (move its tabs or children).
    public func wholeWindowBranch() throws(NavigationError) -> MovedBranch {
        guard let rootModel = model(root) else { throw .invalidSnapshot("no root") }
        switch rootModel.content {
        case .stack(let path, _):
            let roots = Set(path.map(\.model))
            var models = self.models.filter { $0.id != root }
            for index in models.indices where roots.contains(models[index].id) {
                models[index].parent = nil
                models[index].attachment = .root
            }
            var elements = path
            if !elements.isEmpty { elements[0].transition = nil }
            return MovedBranch(form: .stackSuffix(elements), roots: path.map(\.model), models: models, scheduled: scheduled, forward: forward)
        case .screen:
            return MovedBranch(
                form: .stackSuffix([StackElement(model: root)]), roots: [root], models: models, scheduled: scheduled, forward: forward)
        default:
            throw .invalidSpec(
                "model \(root) is the window's root, a \(rootModel.kind.tag) container: move what it holds (a tab, a child)")
        }
    }

    /// The state with `branch` grafted in at `placement`, its models under fresh ids of this window (the map from
    /// their old ids is returned; a model's id is never given to another, and this window may have used the old
    /// ones), and the moved tab's id here when it is a tab. The batches the branch scheduled do not come along (their
    /// commands name the old ids); its forward list does when it lands on the active branch (`activeModel`'s stack,
    /// a selected tab, a presentation on the active model), its entries without ids.
    /// - Throws: ``NavigationError/unknownModel(_:)``, ``NavigationError/detachedModel(_:)``,
    ///   ``NavigationError/invalidSpec(_:)``: a container of the wrong kind for the branch's form (pushed screens go
    ///   on a stack, a tab into tabs, a presentation on a model presenting nothing), no such container to choose, a
    ///   position out of range, a tab id taken, a tag another model here carries; ``NavigationError/limitsExceeded(_:)``
    ///   when the id counter would pass ``maxCounter``.
    public func attaching(
        _ branch: MovedBranch, at placement: MovePlacement, activeModel: ModelID?
    ) throws(NavigationError) -> (state: WindowSnapshot, ids: [ModelID: ModelID], tab: String?) {
        var index: [ModelID: Int] = [:]
        for (position, model) in models.enumerated() { index[model.id] = position }
        guard nextModelID <= Self.maxCounter - branch.models.count else {
            throw .limitsExceeded("the window's ids would pass \(Self.maxCounter)")
        }
        var map: [ModelID: ModelID] = [:]
        for (offset, model) in branch.models.enumerated() { map[model.id] = ModelID(rawValue: nextModelID + offset) }
        let tags = Dictionary(models.compactMap { model in model.tag.map { ($0, model.id) } }, uniquingKeysWith: { a, _ in a })
        for model in branch.models {
            if let tag = model.tag, let holder = tags[tag] {
                throw .invalidSpec("model \(model.id) carries tag \"\(tag.prefix(64))\", which model \(holder) carries here")
            }
        }
        func isDetached(_ id: ModelID) -> Bool {
            var current = index[id].map { models[$0] }
            while let model = current {
                if case .saved = model.attachment { return true }
                current = model.parent.flatMap { index[$0] }.map { models[$0] }
            }
            return false
        }
        func ancestors(of id: ModelID?) -> [ModelState] {
            var result: [ModelState] = []
            var current = id.flatMap { index[$0] }.map { models[$0] }
            while let model = current {
                result.append(model)
                current = model.parent.flatMap { index[$0] }.map { models[$0] }
            }
            return result
        }
        let wanted: MovePlacement.Container = switch branch.form {
        case .stackSuffix: .stack
        case .tab: .tabs
        case .presented: .presentOn
        }
        let target: ModelID
        if let (kind, model) = placement.container {
            guard kind == wanted else {
                throw .invalidSpec("\(Self.formName(branch.form)) go\(wanted == .stack ? "" : "es") into '\(wanted.rawValue)', not '\(kind.rawValue)'")
            }
            guard index[model] != nil else { throw .unknownModel(model) }
            guard !isDetached(model) else { throw .detachedModel(model) }
            target = model
        } else {
            let found: ModelID? = switch wanted {
            case .stack: ancestors(of: activeModel).first { $0.path != nil }?.id
            case .tabs: models.first { if case .tabs = $0.content { !isDetached($0.id) } else { false } }?.id
            case .presentOn: activeModel
            }
            guard let found else {
                throw .invalidSpec("this window has no \(wanted == .stack ? "stack" : "tab container") to take \(Self.formName(branch.form)); name one in the placement")
            }
            target = found
        }
        guard let targetAt = index[target] else { throw .unknownModel(target) }
        var container = models[targetAt]
        var added = branch.models.map { Self.remapped($0, map) }
        let roots = branch.roots.compactMap { map[$0] }
        var shifted: [ModelID: Attachment] = [:]
        var tabID: String?
        var active = false
        switch branch.form {
        case .stackSuffix(let elements):
            guard case .stack(let path, let hides) = container.content else { throw .invalidSpec("model \(target) is not a stack") }
            let position = placement.position ?? path.count
            guard (1...path.count).contains(position) else {
                throw .invalidSpec("position \(position) is not in 1...\(path.count) of stack \(target) (0 is its root)")
            }
            let inserted = zip(elements, roots).map { StackElement(model: $1, transition: $0.transition) }
            var newPath = path
            newPath.insert(contentsOf: inserted, at: position)
            for (offset, element) in newPath.enumerated() where offset >= position + inserted.count {
                shifted[element.model] = .path(index: offset)
            }
            container.content = .stack(path: newPath, hidesTabBarWhenNotAtRoot: hides)
            for (offset, root) in roots.enumerated() { place(root, in: &added, parent: target, .path(index: position + offset)) }
            active = ancestors(of: activeModel).contains { $0.id == target }
        case .tab(let tab):
            guard case .tabs(var tabs, var selected) = container.content else { throw .invalidSpec("model \(target) is not a tab container") }
            let taken = Set(tabs.map(\.id))
            var id = placement.tab ?? tab.id
            if taken.contains(id) {
                guard placement.tab == nil else { throw .invalidSpec("tabs \(target) has a tab '\(id.prefix(64))' already") }
                var suffix = 2
                while taken.contains("\(tab.id)-\(suffix)") { suffix += 1 }
                id = "\(tab.id)-\(suffix)"
            }
            let position = placement.position ?? tabs.count
            guard (0...tabs.count).contains(position) else {
                throw .invalidSpec("position \(position) is not in 0...\(tabs.count) of tabs \(target)")
            }
            guard let root = roots.first else { throw .invalidSpec("the branch is empty") }
            tabs.insert(Tab(id: id, title: tab.title, icon: tab.icon, model: root), at: position)
            if placement.select {
                if var state = container.tabState, state.policy.backBehavior != .initialRoute, selected != id {
                    state.history.removeAll { $0 == selected }
                    state.history.append(selected)
                    if state.history.count > TabState.maxFullHistory { state.history.removeFirst() }
                    container.tabState = state
                }
                selected = id
                active = ancestors(of: activeModel).contains { $0.id == target }
            }
            container.content = .tabs(tabs, selected: selected)
            place(root, in: &added, parent: target, .tab(id))
            tabID = id
        case .presented(let style, let transition):
            guard container.presented == nil else {
                throw .invalidSpec("model \(target) presents model \(container.presented?.description ?? "") already")
            }
            guard container.kind != .alert, container.kind != .confirmationDialog else {
                throw .invalidSpec("model \(target) is an alert or a dialog: it presents nothing")
            }
            guard let root = roots.first else { throw .invalidSpec("the branch is empty") }
            container.presented = root
            place(root, in: &added, parent: target, .presented(style))
            if let at = added.firstIndex(where: { $0.id == root }) { added[at].transition = transition }
            active = target == activeModel
        }
        var result = models
        result[targetAt] = container
        for (id, attachment) in shifted { if let at = index[id] { result[at].attachment = attachment } }
        result += added
        var state = WindowSnapshot(
            unchecked: version, nextModelID: nextModelID + branch.models.count, root: root, models: result, isClosed: isClosed)
        state.scheduled = scheduled
        state.nextScheduleNumber = nextScheduleNumber
        state.forward = active && !branch.forward.isEmpty
            ? branch.forward.map { var entry = $0; entry.ids = []; return entry } : forward
        state.rendererState = rendererState
        return (state, map, tabID)
    }

    /// A new window's state holding `branch` (a tear-off): pushed screens under a new stack, a tab's or a presented
    /// model as the root. Ids are kept (the window is new); the batches it scheduled and the forward list come along.
    /// - Throws: ``NavigationError/invalidSnapshot(_:)`` when the result does not validate.
    public static func window(holding branch: MovedBranch) throws(NavigationError) -> WindowSnapshot {
        let highest = branch.models.map(\.id.rawValue).max() ?? 0
        var models = branch.models
        let root: ModelID
        var next = highest + 1
        switch branch.form {
        case .stackSuffix(let elements):
            root = ModelID(rawValue: next)
            next += 1
            var path = elements
            if !path.isEmpty { path[0].transition = nil }
            for (offset, element) in path.enumerated() {
                if let at = models.firstIndex(where: { $0.id == element.model }) {
                    models[at].parent = root
                    models[at].attachment = .path(index: offset)
                }
            }
            models.insert(
                ModelState(
                    id: root, parent: nil, attachment: .root, screen: ModelKind.stack.tag,
                    content: .stack(path: path, hidesTabBarWhenNotAtRoot: false)), at: 0)
        case .tab, .presented:
            guard let only = branch.roots.first else { throw .invalidSnapshot("the branch is empty") }
            root = only
        }
        var state = try WindowSnapshot(
            version: 0, nextModelID: next, root: root, models: models, scheduled: branch.scheduled)
        state.forward = branch.forward
        return state
    }

    private func place(_ id: ModelID, in models: inout [ModelState], parent: ModelID, _ attachment: Attachment) {
        guard let at = models.firstIndex(where: { $0.id == id }) else { return }
        models[at].parent = parent
        models[at].attachment = attachment
    }

    private static func formName(_ form: MovedBranch.Form) -> String {
        switch form {
        case .stackSuffix: "pushed screens"
        case .tab: "a tab"
        case .presented: "a presentation"
        }
    }

    /// The same state (version, id counter, root, renderer state) with other models, batches and forward list, not
    /// validated here: a window made or restored from it validates it (a manifest migration's result).
    public func replacing(
        models: [ModelState], scheduled: [ScheduledBatch], forward: [ForwardEntry], root: ModelID? = nil, nextModelID: Int? = nil
    ) -> WindowSnapshot {
        var state = WindowSnapshot(
            unchecked: version, nextModelID: nextModelID ?? self.nextModelID, root: root ?? self.root, models: models,
            isClosed: isClosed)
        state.scheduled = scheduled
        state.nextScheduleNumber = nextScheduleNumber
        state.forward = forward
        state.rendererState = rendererState
        return state
    }

    /// The same state without what was its clients' authority: what a closed or saved window keeps, and what a
    /// reopened one comes back with. A protection mark is its owner's while it is connected, and a batch a client
    /// scheduled acts with that client's authority: neither is part of the navigation, and the client may be gone
    /// (its unique name never returns) when the window opens again. So marks are removed and batches with an
    /// ``ScheduledBatch/author`` dropped (a browser's reopened tab does not resume the page's timers either); the
    /// batches of no client (the session's own, or an author's that left while the window was open) stay.
    /// Deterministic: a replayed close, save or reopen releases the same.
    public func released() -> WindowSnapshot {
        let marked = models.contains(where: { $0.protection != nil })
        let authored = scheduled.contains(where: { $0.author != nil })
        guard marked || authored else { return self }
        var models = self.models
        if marked { for index in models.indices { models[index].protection = nil } }
        var copy = WindowSnapshot(unchecked: version, nextModelID: nextModelID, root: root, models: models, isClosed: isClosed)
        copy.scheduled = authored ? scheduled.filter { $0.author == nil } : scheduled
        copy.nextScheduleNumber = nextScheduleNumber
        copy.forward = forward
        copy.prepared = prepared
        copy.rendererState = rendererState
        return copy
    }

    /// `model` with every id it names taken through `map` (ids outside it are kept).
    public static func remapped(_ model: ModelState, _ map: [ModelID: ModelID]) -> ModelState {
        func m(_ id: ModelID) -> ModelID { map[id] ?? id }
        var model = model
        model.id = m(model.id)
        model.parent = model.parent.map(m)
        model.presented = model.presented.map(m)
        model.resultTo = model.resultTo.map(m)
        model.saved = model.saved.map { SavedBranch(screen: $0.screen, model: m($0.model)) }
        switch model.content {
        case .screen, .alert, .confirmationDialog: break
        case .stack(let path, let hides):
            model.content = .stack(path: path.map { StackElement(model: m($0.model), transition: $0.transition) }, hidesTabBarWhenNotAtRoot: hides)
        case .tabs(let tabs, let selected):
            model.content = .tabs(tabs.map { Tab(id: $0.id, title: $0.title, icon: $0.icon, model: m($0.model)) }, selected: selected)
        case .switched(let child): model.content = .switched(m(child))
        case .custom(let kind, let children, let selected): model.content = .custom(kind: kind, children: children.map(m), selected: selected)
        }
        return model
    }
}
