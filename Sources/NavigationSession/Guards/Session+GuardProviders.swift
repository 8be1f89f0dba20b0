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

/// A provider's answer as the session keeps it, so a question asked once is not asked again about the same window
/// version (Docs/guards.md, "One answer to \"may this happen?\""): `Check`, `BeginBack` and the `Can*` properties
/// read it, and a change the provider allowed in a dry run commits without a second question.
public enum GuardVerdict: Sendable, Hashable {
    /// The provider allowed the change.
    case allow
    /// The provider denied it, with its reason.
    case deny(String)
    /// The provider would make another batch instead.
    case redirect
}

/// What a kept verdict answered: one question about a window at one version, without the version.
struct VerdictKey: Hashable {
    let guardName: String
    let cause: String
    let entered: String
    let left: String

    init(_ question: GuardQuestion) {
        guardName = question.guardName
        cause = question.causeJSON
        entered = question.enteredJSON
        left = question.leftJSON
    }
}

/// The verdicts kept for one window: only those about its version ``version`` (a change makes them stale).
struct WindowVerdicts {
    var version: Int
    var entries: [VerdictKey: GuardVerdict] = [:]
}

/// The provider side of guards, kept by the session: registrations and the state of the change being asked.
struct GuardProviderState {
    /// Verdicts kept per window, for the window's current version only (at most ``maximumKept`` each).
    var verdicts: [WindowNumber: WindowVerdicts] = [:]
    /// Verdicts one window keeps at most (a `Check` of many different batches cannot grow it further).
    static let maximumKept = 32
    /// Whether the change being made is a dry run for the `Can*` properties: a question no verdict answers is not
    /// asked (nobody waits); the move is offered and ``probe`` says what to ask.
    var probing = false
    /// The first question a probing dry run could not answer from the kept verdicts.
    var probe: GuardQuestion?
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
        forgetVerdicts(of: name)
        refreshGates()
    }

    /// Unregisters `client` as the provider of guard `name` (Session1 `UnregisterGuard`).
    /// - Throws: ``SessionError/unknownGuard(_:)``; ``SessionError/accessDenied(_:)`` when `client` is not its provider.
    public func unregisterGuard(_ name: String, client: String) throws(SessionError) {
        guard manifest.guards[name] != nil else { throw .unknownGuard(name) }
        guard guardProviders.providers[name] == client else {
            throw .accessDenied("\(client) is not the provider of guard '\(name)'")
        }
        guardProviders.providers[name] = nil
        forgetVerdicts(of: name)
        refreshGates()
    }

    /// The registered providers: guard name → unique bus name.
    public var guardRegistrations: [String: String] { guardProviders.providers }

    /// Forgets the guards `client` provides (it left the bus). O(guards).
    func forgetGuards(of client: String) {
        guard providesGuard(client) else { return }
        for (name, provider) in guardProviders.providers where provider == client { forgetVerdicts(of: name) }
        guardProviders.providers = guardProviders.providers.filter { $0.value != client }
        refreshGates()
    }

    // MARK: Kept verdicts

    /// Keeps a provider's answer to `question` for dry runs and the `Can*` properties while the window stays at the
    /// version asked about.
    public func remember(_ verdict: GuardVerdict, for question: GuardQuestion) {
        guard guardProviders.providers[question.guardName] == question.provider else { return }
        var kept = guardProviders.verdicts[question.window] ?? WindowVerdicts(version: question.version)
        if kept.version != question.version { kept = WindowVerdicts(version: question.version) }
        if kept.entries.count >= GuardProviderState.maximumKept { kept.entries.removeAll() }
        kept.entries[VerdictKey(question)] = verdict
        guardProviders.verdicts[question.window] = kept
    }

    /// Drops the kept answers of guard `name` (its provider changed, or said its answers changed:
    /// Session1 `RefreshGuard`). O(kept verdicts).
    public func forgetVerdicts(of name: String) {
        for (number, kept) in guardProviders.verdicts {
            guardProviders.verdicts[number]?.entries = kept.entries.filter { $0.key.guardName != name }
        }
    }

    /// The kept answer to `question`, if the window is still at the version it was about.
    func keptVerdict(_ question: GuardQuestion) -> GuardVerdict? {
        guard let kept = guardProviders.verdicts[question.window], kept.version == question.version else { return nil }
        return kept.entries[VerdictKey(question)]
    }

    /// Whether a provider is registered for guard `name`.
    public func hasProvider(_ name: String) -> Bool { guardProviders.providers[name] != nil }

    // MARK: What a renderer may offer

    /// What a renderer may offer in `window` right now (Window1 `CanGoBack`, `CanPop`, `CanDismiss`,
    /// `CanGoForward`): the moves' own rules and marks (``NavigationWindow/abilities``), and, while a guard provider
    /// is registered or the manifest declares entry conditions, the answer the move would get — entry conditions
    /// and the providers' kept verdicts, read from a dry run of the move. A provider's question no kept verdict
    /// answers is not waited for: the move is offered, and `probe` is the question to ask (the daemon asks it and
    /// reads the properties again with the answer). Without providers or conditions: O(depth), no dry run.
    public func offers(of window: SessionWindow) -> (abilities: WindowAbilities, canGoForward: Bool, probe: GuardQuestion?) {
        let graph = window.graph
        var abilities = graph.abilities
        var canGoForward = graph.canGoForward
        let providers = !guardProviders.providers.isEmpty
        guard providers || (canGoForward && !graph.configuration.entryRequirements.isEmpty), !graph.isClosed else {
            return (abilities, canGoForward, nil)
        }
        guardProviders.probing = true
        guardProviders.probe = nil
        defer {
            guardProviders.probing = false
            guardProviders.probe = nil
        }
        func allowed(_ command: NavigationCommand) -> Bool {
            do {
                _ = try gated(window) { () throws(NavigationError) in try graph.dryRun([BatchCommand(command)]) }
                return true
            } catch {
                return false
            }
        }
        if providers, abilities.canGoBack, !allowed(.goBack) {
            // Rare: the move back is refused. Its two renderer forms are read on their own.
            abilities.canGoBack = false
            abilities.canPop = abilities.canPop && allowed(.stackDropLast(1))
            abilities.canDismiss = abilities.canDismiss && allowed(.dismiss)
        }
        // Only when the route forward would re-enter a screen that has a condition or a provider-decided guard.
        if canGoForward, let next = graph.forward.first, enters(next.model, conditioned: graph.configuration.entryRequirements),
            !allowed(.goForward)
        {
            canGoForward = false
        }
        return (abilities, canGoForward, guardProviders.probe)
    }

    /// Whether creating `spec` would enter a screen with an entry condition or covered by a guard whose provider is
    /// registered. O(spec).
    private func enters(_ spec: ModelSpec, conditioned: [String: String]) -> Bool {
        if conditioned[spec.screen] != nil { return true }
        if let names = manifest.guardTable.byScreen[spec.screen], names.contains(where: { guardProviders.providers[$0] != nil }) {
            return true
        }
        switch spec.content {
        case .screen, .alert, .confirmationDialog: return false
        case .stack(let path, _): return path.contains { enters($0.model, conditioned: conditioned) }
        case .tabs(let tabs, _): return tabs.contains { enters($0.model, conditioned: conditioned) }
        case .switched(let child): return enters(child, conditioned: conditioned)
        case .custom(_, let children, _): return children.contains { enters($0, conditioned: conditioned) }
        }
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
        var gate = CommitGate(screens: watchedScreens())
        gate.alwaysConsulted = guardProviders.busy.contains(window.number)
        window.graph.commitGate = gate
    }

    /// The screens whose changes the gates stop: those of the guards that could refuse now — a provider is
    /// registered, or the guard denies without one (`onAbsent: deny`). A guard that would allow anyway costs a
    /// change nothing (it is not stopped and applied again).
    private func watchedScreens() -> [String: CommitGate.Moments] {
        var screens: [String: CommitGate.Moments] = [:]
        for (screen, names) in manifest.guardTable.byScreen {
            var moments: CommitGate.Moments = []
            for name in names {
                guard let declaration = manifest.guards[name],
                    guardProviders.providers[name] != nil || declaration.onAbsent == .deny
                else { continue }
                if declaration.onEnter { moments.insert(.enter) }
                if declaration.onLeave { moments.insert(.leave) }
            }
            if !moments.isEmpty { screens[screen] = moments }
        }
        return screens
    }

    /// Gives every window's gate the screens watched now (a provider came or went). O(windows + guarded screens).
    func refreshGates() {
        guard !manifest.guards.isEmpty else { return }
        let screens = watchedScreens()
        for window in windowsByNumber.values { window.graph.commitGate?.screens = screens }
    }

    /// Runs a change of `window`'s graph under its commit gate — the one place a guard is asked. A change the gate
    /// stops comes back as a value (``NavigationError/undecided(_:)``, nothing changed); the session decides about it
    /// (allow, refuse, or ask a provider and hold the caller) and, to let it commit, applies it again with the
    /// decision (``CommitGate/decided``). A change no guard covers runs once.
    func gated<T>(_ window: SessionWindow, _ change: () throws(NavigationError) -> T) throws(NavigationError) -> T {
        // Every change of a window passes here: its policy is asked first, with the acting client's authority.
        if let refusal = policyRefusal(of: window) { throw .notPermitted(refusal) }
        do {
            return try change()
        } catch .undecided(let stopped) {
            try decide(stopped, in: window.number)
            window.graph.commitGate?.decided = stopped
            defer { window.graph.commitGate?.decided = nil }
            do {
                return try change()
            } catch .undecided {
                // The graph is deterministic: the same change stops with the same value. Never expected.
                throw .denied(guard: "", reason: "the change was not the same when applied again")
            }
        }
    }

    /// The gate's decision for a change to window `number`: allow (return), refuse
    /// (``NavigationError/denied(guard:reason:)``) or ask (``NavigationError/decisionPending(guard:)``, with the
    /// question kept for the service).
    private func decide(_ change: CommitGate.Change, in number: WindowNumber) throws(NavigationError) {
        // A replay re-applies what was decided when it was journaled.
        guard !replaying else { return }
        let askedWindow: WindowNumber = guardProviders.asking ?? number
        // A dry run waits for an answer only on the guarded path (`Check`, `BeginBack`: the caller's reply is held);
        // a change waits unless it is an effect of another change.
        let canWait: Bool = guardProviders.mayWait && askedWindow == number && effectDepth == 0 && !guardProviders.probing
        if !guardProviders.probing, !change.dryRun || canWait, guardProviders.bypass != number,
            guardProviders.busy.contains(number),
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
                if declaration.onAbsent == .deny {
                    if !change.dryRun, !guardProviders.probing { recordGuardDecision(window: number, guard: name, verdict: "absent") }
                    throw .denied(guard: name, reason: "no provider is registered")
                }
                continue
            }
            let question = GuardQuestion(
                guardName: name, provider: provider, window: number, version: change.version,
                causeJSON: Self.causeJSON(change.cause), enteredJSON: Self.touchedJSON(change.entered),
                leftJSON: Self.touchedJSON(change.left), timeoutMs: declaration.timeoutMs)
            // The provider's answer to this very question, kept: a dry run takes it whatever it was; a change takes
            // an allow (a deny or a redirect is asked again, so the caller and subscribers hear it from the provider).
            switch keptVerdict(question) {
            case .allow?: continue
            case .deny(let reason)? where change.dryRun: throw .denied(guard: name, reason: reason)
            case .redirect? where change.dryRun:
                throw .denied(guard: name, reason: "its provider would make another change instead (a redirect)")
            default: break
            }
            // The `Can*` properties do not wait: the move is offered until the provider's answer is kept.
            if guardProviders.probing {
                if guardProviders.probe == nil { guardProviders.probe = question }
                continue
            }
            // A dry run off the guarded path (nobody holds its reply) reports what is known without asking.
            if change.dryRun && !canWait { continue }
            guard canWait else {
                // A change nobody waits for (an effect of another change, a client leaving) gets no answer.
                if declaration.onTimeout == .deny {
                    if !change.dryRun { recordGuardDecision(window: number, guard: name, verdict: "timeout") }
                    throw .denied(guard: name, reason: "the change cannot wait for the provider's answer")
                }
                continue
            }
            guardProviders.question = question
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
