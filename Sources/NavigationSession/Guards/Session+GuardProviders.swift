import NavigationCore

/// A question for a guard's provider: what a change is about to do (Docs/guards.md, "Guard providers").
public struct GuardQuestion: Sendable, Hashable {
    /// The guard asked.
    public let guardName: String
    /// The provider's unique bus name.
    public let provider: String
    /// The window the change is to.
    public let window: WindowNumber
    /// The window's version before the change.
    public let version: Int
    /// The change's cause as JSON (`Changed`'s `cause_json`).
    public let causeJSON: String
    /// The covered models the change enters, as JSON: `[{"model":12,"screen":"profile"}]`.
    public let enteredJSON: String
    /// The covered models it leaves (finishes or suspends), as JSON.
    public let leftJSON: String
    /// How long the provider has to answer.
    public let timeoutMs: Int
}

/// The provider side of guards, kept by the session: registrations and the state of the change being asked.
struct GuardProviderState {
    /// The provider of each guard that has one: guard name → unique bus name.
    var providers: [String: String] = [:]
    /// Guards whose provider allowed the change now being applied again, with the window version they saw.
    var approvals: [String: Int] = [:]
    /// Windows whose earlier change waits for a provider: later changes to them queue behind it.
    var busy: Set<WindowNumber> = []
    /// Whether the change being made may wait for a provider (a caller's change).
    var mayWait = false
    /// The window of the change that may wait (`nil` with ``mayWait``: not known before it runs, a deep link).
    var asking: WindowNumber?
    /// The busy window whose queued change is being applied again (it does not queue behind itself).
    var bypass: WindowNumber?
    /// The question the change just refused raised (``Session/change(asking:window:approvals:rerun:_:)`` returns it).
    var question: GuardQuestion?
    /// The busy window the change just refused must queue behind.
    var queueBehind: WindowNumber?
}

extension Session {
    /// Registers `client` as the provider of guard `name` (Session1 `RegisterGuard`).
    /// - Throws: ``SessionError/unknownGuard(_:)``; ``SessionError/guardTaken(_:provider:)`` when another client
    ///   provides it (registering again from the same client does nothing).
    public func registerGuard(_ name: String, client: String) throws(SessionError) {
        guard manifest.guards[name] != nil else { throw .unknownGuard(name) }
        if let current = guardProviders.providers[name] {
            guard current == client else { throw .guardTaken(name, provider: current) }
            return
        }
        guardProviders.providers[name] = client
    }

    /// Unregisters `client` as the provider of guard `name` (Session1 `UnregisterGuard`).
    /// - Throws: ``SessionError/unknownGuard(_:)``; ``SessionError/accessDenied(_:)`` when `client` is not its provider.
    public func unregisterGuard(_ name: String, client: String) throws(SessionError) {
        guard manifest.guards[name] != nil else { throw .unknownGuard(name) }
        guard guardProviders.providers[name] == client else {
            throw .accessDenied("\(client) is not the provider of guard '\(name)'")
        }
        guardProviders.providers[name] = nil
    }

    /// The registered providers: guard name → unique bus name.
    public var guardRegistrations: [String: String] { guardProviders.providers }

    /// Forgets the guards `client` provides (it left the bus). O(guards).
    func forgetGuards(of client: String) {
        guard providesGuard(client) else { return }
        guardProviders.providers = guardProviders.providers.filter { $0.value != client }
    }

    /// Whether `client` provides a guard.
    func providesGuard(_ client: String) -> Bool { guardProviders.providers.values.contains(client) }

    // MARK: The service's side of a question

    /// Marks `window` as waiting for a provider (its later changes queue) or not.
    public func setBusy(_ number: WindowNumber, _ busy: Bool) {
        if busy { guardProviders.busy.insert(number) } else { guardProviders.busy.remove(number) }
        if let window = windowsByNumber[number] { window.graph.commitGate?.alwaysConsulted = busy }
    }

    /// Whether a change to `window` waits for a provider.
    public func isBusy(_ number: WindowNumber) -> Bool { guardProviders.busy.contains(number) }

    /// Whether any window waits for a provider.
    public var anyBusy: Bool { !guardProviders.busy.isEmpty }

    // MARK: The gate

    /// Installs the commit gate on a window when the manifest declares guards.
    func installGate(on window: SessionWindow) {
        guard !manifest.guards.isEmpty else { return }
        var screens: [String: CommitGate.Moments] = [:]
        for (screen, names) in manifest.guardTable.byScreen {
            var moments: CommitGate.Moments = []
            for name in names {
                guard let declaration = manifest.guards[name] else { continue }
                if declaration.onEnter { moments.insert(.enter) }
                if declaration.onLeave { moments.insert(.leave) }
            }
            screens[screen] = moments
        }
        let number = window.number
        window.graph.commitGate = CommitGate(screens: screens) { [weak self] change throws(NavigationError) in
            try self?.decide(change, in: number)
        }
    }

    /// The gate's decision for a change to window `number`: allow (return), refuse
    /// (``NavigationError/denied(guard:reason:)``) or ask (``NavigationError/decisionPending(guard:)``, with the
    /// question kept for the service).
    private func decide(_ change: CommitGate.Change, in number: WindowNumber) throws(NavigationError) {
        // A replay re-applies what was decided when it was journaled.
        guard !replaying else { return }
        let askedWindow: WindowNumber = guardProviders.asking ?? number
        let canWait: Bool = guardProviders.mayWait && askedWindow == number && effectDepth == 0 && !change.dryRun
        if !change.dryRun, guardProviders.bypass != number, guardProviders.busy.contains(number),
            coveringGuards(change).contains(where: { guardProviders.providers[$0] != nil })
        {
            // An earlier change to this window waits for a provider: one a provider must decide too goes after it,
            // in order. A change no provider decides applies now: a slow provider holds only what it decides (the
            // held change, when it runs again, is asked about the window as it then is).
            guard canWait else {
                throw .denied(guard: "", reason: "window \(number) waits for a guard provider's decision; try again")
            }
            guardProviders.queueBehind = number
            throw .decisionPending(guard: "")
        }
        for name in coveringGuards(change) {
            guard let declaration = manifest.guards[name] else { continue }
            if guardProviders.approvals[name] == change.version { continue }
            guard let provider = guardProviders.providers[name] else {
                if declaration.onAbsent == .deny { throw .denied(guard: name, reason: "no provider is registered") }
                continue
            }
            // `Check` cannot wait: it reports what is known without asking.
            if change.dryRun { continue }
            guard canWait else {
                // A change nobody waits for (an effect of another change, a client leaving) gets no answer.
                if declaration.onTimeout == .deny {
                    throw .denied(guard: name, reason: "the change cannot wait for the provider's answer")
                }
                continue
            }
            guardProviders.question = GuardQuestion(
                guardName: name, provider: provider, window: number, version: change.version,
                causeJSON: JSONOutput.string(change.cause), enteredJSON: Self.touchedJSON(change.entered),
                leftJSON: Self.touchedJSON(change.left), timeoutMs: declaration.timeoutMs)
            throw .decisionPending(guard: name)
        }
    }

    /// The guards covering what `change` enters or leaves, sorted by name, each once.
    private func coveringGuards(_ change: CommitGate.Change) -> [String] {
        var names: [String] = []
        for touched in change.entered {
            for name in manifest.guardTable.byScreen[touched.screen] ?? []
            where manifest.guards[name]?.onEnter == true && !names.contains(name) {
                names.append(name)
            }
        }
        for touched in change.left {
            for name in manifest.guardTable.byScreen[touched.screen] ?? []
            where manifest.guards[name]?.onLeave == true && !names.contains(name) {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// `[{"model":12,"screen":"profile"}]`.
    static func touchedJSON(_ models: [CommitGate.Touched]) -> String {
        var text = "["
        for (index, model) in models.enumerated() {
            if index > 0 { text += "," }
            let screen: String = JSONOutput.string(model.screen, fallback: "\"\"")
            text += "{\"model\":" + String(model.id.rawValue) + ",\"screen\":" + screen + "}"
        }
        return text + "]"
    }
}
