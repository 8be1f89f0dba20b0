import DBusKit
import Logging
import NavSessionInterface
import NavigationCore
import NavigationSession
import Synchronization

/// Guard providers on the bus (Docs/guards.md, "Guard providers"): a change a provider must decide is not
/// applied at once; its caller's reply is held (``DBusKit/Bus/holdReply(to:outputs:)``), the provider is asked
/// with `org.navsession.GuardProvider1.Decide` and a deadline, and the change is applied again with the answer.
///
/// Nothing waits on the bus thread: other calls — reads of the same window, changes to other windows — are
/// handled meanwhile. Later changes to the same window queue behind the one asking (at most
/// ``maximumQueuedChanges``), so changes to one window stay in order and each stays atomic.
extension SessionService {
    /// Changes queued behind a window's question at most; beyond: `LimitsExceeded`.
    static let maximumQueuedChanges = 16
    /// Questions one change may need at most (several guards, or the window moving between question and
    /// answer); beyond: `Denied`.
    static let maximumQuestions = 4
    /// Changes one client (one peer process) may have held for providers' decisions at once, over all windows;
    /// beyond: `LimitsExceeded` (its per-client question share).
    static let maximumHeldPerClient = 16

    /// Throws `LimitsExceeded` when `client`'s process already has ``maximumHeldPerClient`` changes held.
    private func checkHeldShare(of client: String?) throws {
        guard let client else { return }
        let clients = guardQueues.withLock { queues in
            queues.values.flatMap { queue in ([queue.head] + queue.waiting).compactMap(\.client) }
        }
        guard !clients.isEmpty else { return }
        let held = state.withLock { state in
            let share = state.session.share(of: client)
            return clients.filter { state.session.share(of: $0) == share }.count
        }
        guard held < Self.maximumHeldPerClient else {
            throw BusError(
                .limitsExceeded,
                "\(held) of your changes already wait for guard providers' decisions; a client (one process) may have "
                    + "at most \(Self.maximumHeldPerClient) (per-client question share)")
        }
    }

    /// One change held for a provider's decision.
    struct GuardedChange: Sendable {
        /// The caller's held reply (`nil` before the change is held).
        var held: HeldReply?
        /// The window, when known before the change runs (`nil`: a deep link, until it asks or queues).
        var window: WindowNumber?
        let attempt: @Sendable (Session) throws -> SessionOutcome
        let reply: @Sendable (SessionOutcome) throws -> [Value]
        var approvals: [String: Int] = [:]
        var questions = 0
        var client: String?
        /// A dry run (`Check`, `BeginBack`): its outcome is replied, never announced; a provider's redirect is
        /// kept as a verdict, not made.
        var dryRun = false
    }

    /// A window's question in flight and the changes behind it.
    struct GuardQueue: Sendable {
        var head: GuardedChange
        var question: GuardQuestion
        var waiting: [GuardedChange] = []
    }

    /// What one try of a change came to.
    enum GuardedAttempt {
        case done(SessionOutcome)
        case ask(GuardQuestion)
        case queue(WindowNumber)
        case failed(BusError)
    }

    /// A provider's answer, or what stands for it.
    enum Verdict: Sendable {
        case allow
        case deny(String)
        case redirect(String)
        /// No answer in time, or garbage: the guard's `onTimeout`.
        case noAnswer(String)
        /// The provider left the bus mid-question: the guard's `onAbsent`.
        case gone
    }

    /// Runs a change a caller asked for: at once when no provider must decide (the usual case), else holds the
    /// reply and asks.
    /// - Parameter alreadyHeld: the caller's reply when it was held before the change could run (its process was
    ///   not known yet): every outcome is sent through it, and the result is `.held`; errors are still thrown.
    func runGuarded(
        _ call: MethodCall, outputs: [Interface.Argument], window: WindowNumber?, on bus: isolated Bus,
        alreadyHeld: HeldReply? = nil, dryRun: Bool = false,
        attempt: @escaping @Sendable (Session) throws -> SessionOutcome,
        reply: @escaping @Sendable (SessionOutcome) throws -> [Value]
    ) throws -> SynchronousReply {
        func deliver(_ values: [Value]) -> SynchronousReply {
            guard let alreadyHeld else { return .values(values) }
            bus.sendHeldReply(alreadyHeld, values: values)
            return .held
        }
        guard hasGuards else {
            let outcome = try dryRun ? withSession { try attempt($0.session) } : perform(on: bus) { try attempt($0) }
            return deliver(try ErrorMapping.mapped { try reply(outcome) })
        }
        var change = GuardedChange(
            held: nil, window: window, attempt: attempt, reply: reply, client: call.sender?.rawValue, dryRun: dryRun)
        switch tryChange(change, rerun: false, on: bus) {
        case .done(let outcome):
            return deliver(try ErrorMapping.mapped { try reply(outcome) })
        case .failed(let error):
            throw error
        case .ask(let question):
            try checkHeldShare(of: call.sender?.rawValue)
            change.held = try alreadyHeld ?? bus.holdReply(to: call, outputs: outputs.map(\.type))
            change.questions = 1
            start(question, for: change, on: bus)
            return .held
        case .queue(let number):
            let full = guardQueues.withLock { ($0[number]?.waiting.count ?? 0) >= Self.maximumQueuedChanges }
            guard !full else {
                throw BusError(
                    .limitsExceeded,
                    "\(Self.maximumQueuedChanges) changes to window \(number) already wait for a guard provider's decision")
            }
            try checkHeldShare(of: call.sender?.rawValue)
            change.held = try alreadyHeld ?? bus.holdReply(to: call, outputs: outputs.map(\.type))
            let queued = guardQueues.withLock { queues -> Bool in
                guard queues[number] != nil else { return false }
                queues[number]?.waiting.append(change)
                return true
            }
            if !queued { resume(change, on: bus) }
            return .held
        }
    }

    /// Whether the manifest declares guards (otherwise changes take the plain path).
    /// Whether the manifest declares guards: read on every call, so kept apart from the manifest (a reload sets it).
    var hasGuards: Bool { guardsDeclared.load(ordering: .relaxed) }

    /// Whether a provider is registered or a window waits for one (otherwise no change can need a question, and
    /// changes take the plain path: no closure, no held reply; a guard's `onAbsent` is decided by the gate).
    var guardsInPlay: Bool {
        state.withLock { !$0.session.guardRegistrations.isEmpty || $0.session.anyBusy }
    }

    /// One try of a change under the session's lock; announces it when it is applied.
    func tryChange(_ change: GuardedChange, rerun: Bool, on bus: isolated Bus) -> GuardedAttempt {
        let result = state.withLock { state in
            let session = state.session
            return session.change(asking: true, window: change.window, approvals: change.approvals, rerun: rerun) {
                try change.attempt(session)
            }
        }
        if result.hasSideEffects, !change.dryRun { announceSideEffects(of: result, on: bus) }
        switch result.kind {
        case .applied(let outcome):
            if !change.dryRun { announce(outcome, on: bus) }
            return .done(outcome)
        case .refused(let error): return .failed(ErrorMapping.busError(for: error))
        case .asks(let question): return .ask(question)
        case .queued(let number): return .queue(number)
        }
    }

    /// Makes `change` the head of its window's queue and asks `question`'s provider.
    private func start(_ question: GuardQuestion, for change: GuardedChange, on bus: isolated Bus) {
        let number = question.window
        // A deep link's window is known now: its rerun must not queue behind its own question.
        var change = change
        if change.window == nil { change.window = number }
        guardQueues.withLock { queues in
            if queues[number] != nil {
                queues[number]?.head = change
                queues[number]?.question = question
            } else {
                queues[number] = GuardQueue(head: change, question: question)
            }
        }
        state.withLock { $0.session.setBusy(number, true) }
        // A provider that let its last question time out is not asked again for a while: its guard's `onTimeout`
        // decides at once, so the changes queued behind a hung provider wait for one deadline, not one each.
        let now = ContinuousClock.now
        if let until = unresponsiveGuards.withLock({ $0[question.guardName] }), until > now {
            answered(question, .noAnswer("its provider did not answer its last question in time; not asked again yet"), on: bus)
            return
        }
        Task {
            let verdict = await Self.ask(question, on: bus)
            self.noteResponsiveness(question, verdict)
            self.answered(question, verdict, on: bus)
        }
    }

    /// How long a guard whose provider let a question time out is decided by `onTimeout` without asking: ten of
    /// its deadlines.
    static let unresponsiveFactor = 10
    /// How a verdict of a question that timed out begins.
    static let noAnswerInTime = "no answer within"

    /// Records whether `question`'s provider answered in time (a timeout marks its guard unresponsive).
    func noteResponsiveness(_ question: GuardQuestion, _ verdict: Verdict) {
        unresponsiveGuards.withLock { guards in
            if case .noAnswer(let why) = verdict, why.hasPrefix(Self.noAnswerInTime) {
                guards[question.guardName] =
                    ContinuousClock.now + .milliseconds(question.timeoutMs * Self.unresponsiveFactor)
            } else {
                guards[question.guardName] = nil
            }
        }
    }

    /// Calls the provider's `Decide` with the guard's deadline.
    static func ask(_ question: GuardQuestion, on bus: Bus) async -> Verdict {
        typealias P = NavSessionInterface.GuardProvider1
        let values: [Value]
        if let recorder = EmittedDocuments.shared {
            recorder.record("Decide.cause_json", question.causeJSON)
            recorder.record("Decide.entered_json", question.enteredJSON)
            recorder.record("Decide.left_json", question.leftJSON)
        }
        do {
            values = try await bus.call(
                destination: try BusName(question.provider), path: try ObjectPath(P.path),
                interface: try InterfaceName(P.name), member: try MemberName(P.decide),
                arguments: [
                    .string(question.guardName),
                    .objectPath(try ObjectPath(NavSessionInterface.windowPrefix + String(question.window))),
                    .uint64(UInt64(clamping: question.version)), .string(question.causeJSON),
                    .string(question.enteredJSON), .string(question.leftJSON),
                ],
                timeout: .milliseconds(question.timeoutMs))
        } catch let error as BusError {
            switch error.name {
            case .serviceUnknown, .nameHasNoOwner, .noReply, .disconnected: return .gone
            default: return .noAnswer("the provider answered \(error.name.rawValue)")
            }
        } catch {
            return .noAnswer("\(noAnswerInTime) \(question.timeoutMs) ms")
        }
        guard values.count == 3, let verdict = values[0].string, let reason = values[1].string,
              let redirect = values[2].string
        else {
            return .noAnswer("the answer is not (sss)")
        }
        switch verdict {
        case "allow": return .allow
        case "deny": return .deny(reason.isEmpty ? "denied" : String(reason.prefix(512)))
        case "redirect": return .redirect(redirect)
        default: return .noAnswer("unknown verdict '\(verdict.prefix(32))'")
        }
    }

    /// Handles the answer to the question of `question.window`'s queue head.
    private func answered(_ question: GuardQuestion, _ verdict: Verdict, on bus: isolated Bus) {
        let number = question.window
        guard let queue = guardQueues.withLock({ $0[number] }), queue.question == question else { return }
        var head = queue.head
        let declaration = manifest.guards[question.guardName]
        keep(verdict, for: question, on: bus)
        if head.dryRun {
            // A dry run replies what the change would get: the kept verdict answers it when it runs again
            // (allow, deny, redirect); no answer decides as for the change, without telling subscribers.
            switch verdict {
            case .allow, .deny, .redirect: resume(head, on: bus)
            case .noAnswer(let why):
                logGarbage(question, why)
                if declaration?.onTimeout == .allow { allowAndRerun(&head, question, on: bus) } else {
                    refuse(head, question, reason: "the provider gave no answer: \(why)", verdict: nil, on: bus)
                }
            case .gone:
                if declaration?.onAbsent == .deny {
                    refuse(head, question, reason: "the provider left the bus before answering", verdict: nil, on: bus)
                } else {
                    allowAndRerun(&head, question, on: bus)
                }
            }
            return
        }
        switch verdict {
        case .allow:
            allowAndRerun(&head, question, on: bus)
        case .deny(let reason):
            refuse(head, question, reason: reason, verdict: "deny", on: bus)
        case .noAnswer(let why):
            logGarbage(question, why)
            if declaration?.onTimeout == .allow {
                allowAndRerun(&head, question, on: bus)
            } else {
                refuse(head, question, reason: "the provider gave no answer: \(why)", verdict: "timeout", on: bus)
            }
        case .gone:
            if declaration?.onAbsent == .deny {
                refuse(head, question, reason: "the provider left the bus before answering", verdict: "absent", on: bus)
            } else {
                allowAndRerun(&head, question, on: bus)
            }
        case .redirect(let json):
            redirect(head, question, json, on: bus)
        }
    }

    /// Applies the head again with the guard allowed (at the version it was asked about).
    private func allowAndRerun(_ head: inout GuardedChange, _ question: GuardQuestion, on bus: isolated Bus) {
        head.approvals[question.guardName] = question.version
        resume(head, on: bus)
    }

    /// Replies to a held change that was made: what its method builds from `outcome`, or the error building it threw.
    private func replyMade(_ change: GuardedChange, _ outcome: SessionOutcome, on bus: isolated Bus) {
        do {
            send(bus, change.held, values: try ErrorMapping.mapped { try change.reply(outcome) })
        } catch {
            send(bus, change.held, error: error)
        }
    }

    /// Applies a held change again; replies, or asks again (bounded), then goes on with the queue.
    private func resume(_ change: GuardedChange, on bus: isolated Bus) {
        var change = change
        let number = change.window
        switch tryChange(change, rerun: true, on: bus) {
        case .done(let outcome):
            replyMade(change, outcome, on: bus)
        case .failed(let error):
            send(bus, change.held, error: error)
        case .ask(let question):
            guard change.questions < Self.maximumQuestions else {
                send(bus, change.held, error: ErrorMapping.busError(for: NavigationError.denied(
                    guard: question.guardName, reason: "asked \(Self.maximumQuestions) times without a stable answer")))
                break
            }
            change.questions += 1
            start(question, for: change, on: bus)
            return
        case .queue(let behind):
            send(bus, change.held, error: ErrorMapping.busError(for: NavigationError.denied(
                guard: "", reason: "window \(behind) waits for a guard provider's decision; try again")))
        }
        if let number { next(after: number, on: bus) }
    }

    /// Refuses the head with `Denied`, tells subscribers, and goes on with the queue.
    /// - Parameter verdict: what `GuardDecided` says; `nil` sends none (a dry run's refusal is the caller's only).
    private func refuse(
        _ head: GuardedChange, _ question: GuardQuestion, reason: String, verdict: String?, on bus: isolated Bus
    ) {
        send(bus,
            head.held, error: ErrorMapping.busError(for: NavigationError.denied(guard: question.guardName, reason: reason)))
        if let verdict { announceDecision(question, verdict: verdict, reason: reason, on: bus) }
        next(after: question.window, on: bus)
    }

    /// Applies the provider's redirect batch instead of the change, as one change.
    private func redirect(_ head: GuardedChange, _ question: GuardQuestion, _ json: String, on bus: isolated Bus) {
        var redirect = head
        redirect.approvals = [question.guardName: question.version]
        let number = question.window, client = question.provider
        let batch = GuardedChange(
            held: head.held, window: number,
            attempt: { session in try session.apply(window: number, batchJSON: json, client: client) },
            reply: head.reply, approvals: redirect.approvals, questions: Self.maximumQuestions, client: client)
        switch tryChange(batch, rerun: true, on: bus) {
        case .done(let outcome):
            replyMade(head, outcome, on: bus)
            announceDecision(question, verdict: "redirect", reason: "", on: bus)
        case .failed(let error):
            logGarbage(question, "the redirect failed: \(error.message)")
            refuse(head, question, reason: "the provider's redirect failed: \(error.message)", verdict: "timeout", on: bus)
            return
        case .ask, .queue:
            refuse(head, question, reason: "the provider's redirect needs another guard's decision", verdict: "deny", on: bus)
            return
        }
        next(after: number, on: bus)
    }

    /// Handles the changes queued behind window `number` in order, until one asks a provider or none is left.
    private func next(after number: WindowNumber, on bus: isolated Bus) {
        while true {
            let following: GuardedChange? = guardQueues.withLock { queues in
                guard var queue = queues[number], !queue.waiting.isEmpty else {
                    queues[number] = nil
                    return nil
                }
                let first = queue.waiting.removeFirst()
                queues[number] = queue
                return first
            }
            guard var following else {
                state.withLock { $0.session.setBusy(number, false) }
                return
            }
            // A deep link that queued here is a change to this window.
            if following.window == nil { following.window = number }
            switch tryChange(following, rerun: true, on: bus) {
            case .done(let outcome):
                replyMade(following, outcome, on: bus)
            case .failed(let error):
                send(bus, following.held, error: error)
            case .ask(let question):
                var asking = following
                asking.questions = 1
                start(question, for: asking, on: bus)
                return
            case .queue(let behind):
                send(bus, following.held, error: ErrorMapping.busError(for: NavigationError.denied(
                    guard: "", reason: "window \(behind) waits for a guard provider's decision; try again")))
            }
        }
    }

    /// `GuardDecided(guard, verdict, reason, cause_json)` on the window: a change was refused or redirected.
    private func announceDecision(_ question: GuardQuestion, verdict: String, reason: String, on bus: isolated Bus) {
        // Counted for GetStats (journaled with its time).
        state.withLock { $0.session.recordGuardDecision(window: question.window, guard: question.guardName, verdict: verdict) }
        do {
            try emit(
                names.guardDecided, window: question.window, on: bus,
                [.string(question.guardName), .string(verdict), .string(reason), .string(question.causeJSON)])
        } catch {
            logger.debug("GuardDecided not sent: \(error)")
        }
    }

    /// Logs a provider's bad answer (rate-limited by the daemon's log handler).
    private func logGarbage(_ question: GuardQuestion, _ why: String) {
        logger.warning(
            "guard provider gave no usable answer",
            metadata: ["guard": "\(question.guardName)", "provider": "\(question.provider)", "why": "\(why)"])
    }

    // MARK: Session1 members

    /// `RegisterGuard(s name)`, `UnregisterGuard(s name)` and `ListGuards() → a{ss}`.
    func guardMethods() -> [MethodRow] {
        [
            MethodRow("RegisterGuard", .custom { call, bus in
                guard let sender = call.sender else { throw BusError(.invalidArgs, "the call has no sender") }
                let guardName = call.arguments[0].string ?? ""
                // A guard whose manifest names its provider is the owner's alone, and the owner replaces whoever
                // held it (the name moved to another process).
                var replacing: String?
                if let provider = self.manifest.guards[guardName]?.provider {
                    let owner = self.providerNameOwners.withLock { $0[provider] }
                    guard owner == sender.rawValue else {
                        throw BusError(
                            .accessDenied,
                            "guard '\(guardName)' may be provided only by the owner of \(provider) (the manifest's provider)")
                    }
                    replacing = self.state.withLock { $0.session.guardRegistrations[guardName] }
                }
                let changed = try self.withSession { state in
                    let before = state.session.guardRegistrations
                    if let replacing, replacing != sender.rawValue {
                        try state.session.unregisterGuard(guardName, client: replacing)
                    }
                    try state.session.registerGuard(guardName, client: sender.rawValue)
                    return state.session.guardRegistrations != before
                }
                // A provider registering is asked again at once, whatever its guard's last question came to.
                _ = self.unresponsiveGuards.withLock { $0.removeValue(forKey: call.arguments[0].string ?? "") }
                if changed { self.announceGuards(on: bus) }
                return []
            }),
            MethodRow("UnregisterGuard", .custom { call, bus in
                guard let sender = call.sender else { throw BusError(.invalidArgs, "the call has no sender") }
                try self.withSession { state in
                    try state.session.unregisterGuard(call.arguments[0].string ?? "", client: sender.rawValue)
                }
                self.announceGuards(on: bus)
                return []
            }),
            MethodRow("ListGuards", .read { _, state in
                [self.guards(state.session)]
            }),
            refreshGuardMethod(),
        ]
    }

    /// Follows the owners of the well-known names guards declare as their `provider` (one match rule per name,
    /// `arg0`), so `RegisterGuard` can check its caller without a round trip.
    func watchDeclaredProviders(on bus: Bus) async throws {
        let names = Set(manifest.guards.values.compactMap(\.provider))
        guard !names.isEmpty else { return }
        for name in names.sorted() {
            let rule = MatchRule(
                sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"), arguments: [0: name])
            let changes = try await bus.signals(matching: rule)
            Task { [weak self] in
                for await signal in changes {
                    guard let self, let owner = signal.arguments.dropFirst(2).first?.string else { continue }
                    self.providerNameOwners.withLock { $0[name] = owner.isEmpty ? nil : owner }
                }
            }
            if let owner = try? await bus.call(
                destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("GetNameOwner"), arguments: [.string(name)], timeout: .seconds(25)
            ).first?.string {
                providerNameOwners.withLock { $0[name] = $0[name] ?? owner }
            }
        }
    }

    /// Every declared guard → its provider's unique name, `""` for none (`ListGuards`, property `Guards`).
    func guards(_ session: Session) -> Value {
        let registered = session.guardRegistrations
        return .stringDictionary(Dictionary(uniqueKeysWithValues: manifest.guards.keys.map { ($0, registered[$0] ?? "") }))
    }

    /// Session1 `PropertiesChanged` for `Guards`: a provider registered, unregistered or left the bus.
    func announceGuards(on bus: isolated Bus) {
        do {
            try bus.propertiesChanged([names.guards], interface: names.sessionInterface, at: names.sessionPath)
        } catch {
            logger.warning("cannot announce the guards' providers: \(error)")
        }
        // Another provider may answer otherwise: the `Can*` properties are read again.
        probesAsked.withLock { $0.removeAll() }
        refreshOffers(on: bus)
    }
}


extension SessionService {
    /// Sends a held reply's values (nothing when the change was never held).
    func send(_ bus: isolated Bus, _ held: HeldReply?, values: [Value]) {
        if let held { bus.sendHeldReply(held, values: values) }
    }

    /// Sends a held reply's error.
    func send(_ bus: isolated Bus, _ held: HeldReply?, error: any Error) {
        if let held { bus.sendHeldReply(held, error: error) }
    }
}
