import DBusKit
import NavSessionInterface
import NavigationCore
import NavigationRouting
import NavigationSession
import Synchronization

/// One method of an interface as data: its name and what it runs. Its arguments are the contract's
/// (`dbus/*.xml`, through ``NavSessionInterface/Contract``): ``SessionService/bound(_:to:)`` fills them in, and fails
/// when a row names no declared method or a declared method has no row.
struct MethodRow: Sendable {
    let name: String
    private(set) var inputs: [Interface.Argument]
    private(set) var outputs: [Interface.Argument]
    let run: Run
    /// Whether the method only adds to what the bus holds for clients that do not read (a broadcast of the
    /// caller's data, `SendMessage`): refused with `LimitsExceeded` while the bus holds too much of ours
    /// (``DBusKit/Bus/isBacklogged``), so a flood into subscribers that never read stops the flood, not everyone.
    var refusedWhenBacklogged = false

    /// What a method runs. Every kind but ``snapshot`` runs synchronously on the bus thread; a change goes
    /// through ``SessionService/perform(on:_:)``, the one way the session changes.
    enum Run: Sendable {
        /// A batch built from the call, applied to the call's window as one change; the reply is the version.
        case batch(@Sendable (MethodCall, Session, SessionWindow) throws -> [BatchCommand])
        /// A renderer report applied to the call's window; the reply is the version.
        case report(@Sendable (MethodCall) throws -> RendererReport)
        /// Another change of the session, and its reply.
        case change(
            @Sendable (MethodCall, Session) throws -> SessionOutcome,
            reply: @Sendable (MethodCall, SessionOutcome) throws -> [Value])
        /// A dry run of a change (`Check`, `BeginBack`): nothing changes and nothing is announced, but a guard provider
        /// is asked like for the change itself (the reply is held meanwhile) and its answer kept.
        case dryRun(
            @Sendable (MethodCall, Session) throws -> ChangeEvent,
            reply: @Sendable (MethodCall, ChangeEvent) throws -> [Value])
        /// A read, no change: runs under the session's lock.
        case read(@Sendable (MethodCall, inout ServiceState) throws -> [Value])
        /// A reply captured in call order on the bus thread and finished off it (an expensive encoding).
        case deferred(@Sendable (MethodCall, inout ServiceState) throws -> @Sendable () throws -> [Value])
        /// Anything else on the bus thread (Application's activation, Session1's close-on-exit).
        case custom(@Sendable (MethodCall, isolated Bus) throws -> [Value])
    }

    /// A row of a contract method (its arguments come from the contract when bound).
    init(_ name: String, _ run: Run, refusedWhenBacklogged: Bool = false) {
        self.init(name, inputs: [], outputs: [], run, refusedWhenBacklogged: refusedWhenBacklogged)
    }

    /// A row of a method outside the contract (`org.freedesktop.Application`), with its arguments.
    init(
        _ name: String, inputs: [Interface.Argument], outputs: [Interface.Argument], _ run: Run,
        refusedWhenBacklogged: Bool = false
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.run = run
        self.refusedWhenBacklogged = refusedWhenBacklogged
    }

    /// This row with the arguments its method declares.
    func declared(_ arguments: DeclaredMethods.Arguments) -> MethodRow {
        var row = self
        row.inputs = arguments.inputs
        row.outputs = arguments.outputs
        return row
    }
}

/// A contract's methods with their arguments as DBusKit types: parsed once per interface, not once per window
/// exported (``SessionService/window1Methods``'s rows are bound to it for every window).
struct DeclaredMethods: Sendable {
    /// One method's in and out arguments.
    struct Arguments: Sendable {
        let inputs: [Interface.Argument]
        let outputs: [Interface.Argument]
    }

    /// The interface name.
    let interface: String
    /// The methods in the contract's order, with their arguments.
    let methods: [(name: String, arguments: Arguments)]
    /// The same, by name.
    let byName: [String: Arguments]

    init(_ contract: NavSessionInterface.Contract) throws {
        func parsed(_ arguments: [NavSessionInterface.Contract.Argument]) throws -> [Interface.Argument] {
            try arguments.map { Interface.Argument($0.name, try SignatureType(parsing: $0.signature)) }
        }
        interface = contract.name
        methods = try contract.methods.map { method in
            (method.name, Arguments(inputs: try parsed(method.inputs), outputs: try parsed(method.outputs)))
        }
        byName = Dictionary(methods.map { ($0.name, $0.arguments) }, uniquingKeysWith: { first, _ in first })
    }

    /// Window1's, parsed at first use.
    static let window1 = Result { try DeclaredMethods(NavSessionInterface.window1Contract) }
    /// Session1's, parsed at first use.
    static let session1 = Result { try DeclaredMethods(NavSessionInterface.session1Contract) }
}

extension SessionService {
    /// `rows` with their arguments from `declared`: exactly one row per declared method, in the contract's order.
    /// O(methods).
    /// - Throws: when a row names a method the contract does not declare, two rows name one, or a declared method has
    ///   none (a programming error the service's tests meet at once: the daemon cannot export the interface).
    func bound(_ rows: [MethodRow], to declared: Result<DeclaredMethods, any Error>) throws -> [MethodRow] {
        let declared = try declared.get()
        var byName: [String: MethodRow] = [:]
        for row in rows {
            guard declared.byName[row.name] != nil else {
                throw BusError(.failed, "\(declared.interface) declares no method \(row.name)")
            }
            guard byName.updateValue(row, forKey: row.name) == nil else {
                throw BusError(.failed, "two rows for \(declared.interface).\(row.name)")
            }
        }
        return try declared.methods.map { method in
            guard let row = byName[method.name] else {
                throw BusError(.failed, "no handler for \(declared.interface).\(method.name)")
            }
            return row.declared(method.arguments)
        }
    }
}

extension SessionService {
    /// The DBusKit method of a row.
    func method(_ row: MethodRow) throws -> Interface.Method {
        switch row.run {
        case .deferred(let capture):
            return try Interface.Method.completingOffBusThread(row.name, inputs: row.inputs, outputs: row.outputs) { call in
                let finish = try self.withSession { state in try capture(call, &state) }
                guard let recorder = EmittedDocuments.shared else { return finish }
                return { Self.recorded(try finish(), row.name, row.outputs, recorder) }
            }
        default:
            return try Interface.Method.synchronous(row.name, inputs: row.inputs, outputs: row.outputs) { call, bus in
                // Only the senders of what fills the backlog (256 KiB of messages recently): a client that sends a
                // small message now and then is not refused because others flood subscribers that do not read.
                if row.refusedWhenBacklogged, bus.isBacklogged,
                    self.state.withLock({ $0.session.sentMessagesRecently(call.client, atLeast: 256 << 10) })
                {
                    throw BusError(
                        .limitsExceeded,
                        "the bus holds \(bus.backlogBytes) bytes of this service's messages that clients have not read "
                            + "(at most \(Bus.backlogLimit)); \(row.name) waits until they have")
                }
                // Only while a provider is registered or a window waits for one: otherwise the plain path, unchanged.
                if self.hasGuards, self.guardsInPlay {
                    // The guarded path cannot hold up later calls while it waits (a `.completing` reply would):
                    // a change of a client whose process the bus has not told yet holds its reply and runs once it
                    // has, in the client's order, so what it does is charged to its process's shares (marks,
                    // content, questions), never to a share of its own connection.
                    if let client = call.client,
                        !self.state.withLock({ $0.session.knowsProcess(of: client) })
                            || self.awaitingProcess.withLock({ $0[client] != nil }),
                        let deferred = try self.runWhenJoined(row, call, client: client, on: bus)
                    {
                        return deferred
                    }
                    if let guarded = try self.runGuarded(row, call, on: bus) { return guarded }
                }
                // A client's first call, before the bus told its process: asked now (later calls wait, in order),
                // so what it creates is charged to its process's share from the first change.
                if let client = call.client, !self.state.withLock({ $0.session.knowsProcess(of: client) }) {
                    return .completing {
                        await self.joinProcess(of: client, on: bus)
                        return try await self.runPlain(row, call, on: bus)
                    }
                }
                return .values(try self.runPlain(row, call, on: bus))
            }
        }
    }

    /// Holds the reply of a change (a row the guarded path runs) from `client`, whose process is not known yet, and
    /// runs it once ``joinProcess(of:on:)`` told the session; changes of the same client that arrive meanwhile run
    /// after it, in arrival order. `nil` for rows that change nothing (they take the plain path).
    private func runWhenJoined(
        _ row: MethodRow, _ call: MethodCall, client: String, on bus: isolated Bus
    ) throws -> SynchronousReply? {
        switch row.run {
        case .batch, .report, .change, .dryRun: break
        case .read, .custom, .deferred: return nil
        }
        let held = try bus.holdReply(to: call, outputs: row.outputs.map(\.type))
        let run: @Sendable (isolated Bus) -> Void = { bus in
            do {
                _ = try self.runGuarded(row, call, on: bus, alreadyHeld: held)
            } catch {
                bus.sendHeldReply(held, error: error)
            }
        }
        let first = awaitingProcess.withLock { waiting -> Bool in
            let first = waiting[client] == nil
            waiting[client, default: []].append((held, run))
            return first
        }
        if first {
            Task {
                await self.joinProcess(of: client, on: bus)
                self.runAwaitingProcess(of: client, on: bus)
            }
        }
        return .held
    }

    /// Runs, in order, the changes of `client` that waited for its process to be known.
    private func runAwaitingProcess(of client: String, on bus: isolated Bus) {
        let runs = awaitingProcess.withLock { $0.removeValue(forKey: client) ?? [] }
        for waiting in runs { waiting.run(bus) }
    }

    /// A row's synchronous kinds, with the reply's documents recorded in tests.
    func runPlain(_ row: MethodRow, _ call: MethodCall, on bus: isolated Bus) throws -> [Value] {
        let values = try run(row.run, call, on: bus)
        guard let recorder = EmittedDocuments.shared else { return values }
        return Self.recorded(values, row.name, row.outputs, recorder)
    }

    /// Test only: records a reply's JSON arguments (those named `…_json`, Session1 `Plan`'s `states`, and an argument
    /// named `json` when it holds an object: `GetStats`'s, unless it is OpenMetrics text) as
    /// `Method.argument`
    /// (``EmittedDocuments``); returns `values`.
    static func recorded(
        _ values: [Value], _ member: String, _ arguments: [Interface.Argument], _ recorder: EmittedDocuments
    ) -> [Value] {
        for (argument, value) in zip(arguments, values) {
            let kind = "\(member).\(argument.name)"
            guard let text = value.string,
                argument.name.hasSuffix("_json") || kind == "Plan.states" || (argument.name == "json" && text.hasPrefix("{"))
            else { continue }
            recorder.record(kind, text)
        }
        return values
    }

    /// Runs a row's synchronous kinds on the bus thread.
    private func run(_ run: MethodRow.Run, _ call: MethodCall, on bus: isolated Bus) throws -> [Value] {
        switch run {
        case .batch(let build):
            let number = try Self.number(of: call.path)
            let outcome = try perform(on: bus) { session in
                try session.apply(
                    window: number, batch: try build(call, session, try session.window(number)), client: call.client)
            }
            return Self.version(outcome)
        case .report(let build):
            let number = try Self.number(of: call.path)
            let report = try ErrorMapping.mapped { try build(call) }
            return Self.version(try perform(on: bus) { try $0.report(window: number, report, client: call.client) })
        case .change(let body, let reply):
            let outcome = try perform(on: bus) { try body(call, $0) }
            return try ErrorMapping.mapped { try reply(call, outcome) }
        case .dryRun(let body, let reply):
            let event = try withSession { state in try body(call, state.session) }
            return try ErrorMapping.mapped { try reply(call, event) }
        case .read(let read):
            return try withSession { state in try read(call, &state) }
        case .custom(let body):
            return try body(call, bus)
        case .deferred:
            throw BusError(.failed, "a deferred method reached the synchronous path")
        }
    }

    /// Runs a row's change through the guard providers' path (``runGuarded(_:outputs:window:on:attempt:reply:)``);
    /// `nil` for kinds that change nothing.
    private func runGuarded(
        _ row: MethodRow, _ call: MethodCall, on bus: isolated Bus, alreadyHeld: HeldReply? = nil
    ) throws -> SynchronousReply? {
        switch row.run {
        case .batch(let build):
            let number = try Self.number(of: call.path)
            return try runGuarded(call, outputs: row.outputs, window: number, on: bus, alreadyHeld: alreadyHeld, attempt: { session in
                try session.apply(window: number, batch: try build(call, session, try session.window(number)), client: call.client)
            }, reply: { Self.version($0) })
        case .report(let build):
            let number = try Self.number(of: call.path)
            let report = try ErrorMapping.mapped { try build(call) }
            return try runGuarded(call, outputs: row.outputs, window: number, on: bus, alreadyHeld: alreadyHeld, attempt: { session in
                try session.report(window: number, report, client: call.client)
            }, reply: { Self.version($0) })
        case .change(let body, let reply):
            // Window1's own window, or Session1's window argument (Apply, DismissWindow); `nil` for a deep link.
            let number = try? Self.number(of: call.arguments.first?.objectPath ?? call.path)
            return try runGuarded(
                call, outputs: row.outputs, window: number, on: bus, alreadyHeld: alreadyHeld,
                attempt: { session in try body(call, session) },
                reply: { outcome in try reply(call, outcome) })
        case .dryRun(let body, let reply):
            let number = try Self.number(of: call.path)
            return try runGuarded(
                call, outputs: row.outputs, window: number, on: bus, alreadyHeld: alreadyHeld, dryRun: true,
                attempt: { session in
                    let event = try body(call, session)
                    return session.outcome(window: number, events: [.changed(number, event, steps: [], causeJSON: "")])
                },
                reply: { outcome in
                    guard let event = outcome.changes(of: number).first else {
                        throw BusError(.failed, "a dry run came to no change")
                    }
                    return try reply(call, event)
                })
        case .read, .custom, .deferred:
            return nil
        }
    }

    /// The reply of a change to one window: its new version.
    static func version(_ outcome: SessionOutcome) -> [Value] {
        [.uint64(UInt64(clamping: outcome.windowVersion ?? 0))]
    }

    /// The `a{ss}` options of Window1 `Apply` and `Check`.
    static let applyOptions = Interface.Argument("options", .dictionary(key: .string, value: .string))

    /// `org.navsession.Window1` (dbus/org.navsession.Window1.xml), shared by every window object: its methods
    /// (``window1Methods``) and properties (``WindowProperties/rows``) as data.
    func windowInterface() throws -> Interface {
        try Interface(
            NavSessionInterface.Window1.name,
            methods: try bound(window1Methods(), to: DeclaredMethods.window1).map(method),
            properties: try WindowProperties.rows.map(property),
            signals: try Self.window1Signals())
    }

    /// A Window1 property from its row: read from the window's cached properties, or (`Routes`) computed.
    private func property(_ row: WindowProperties.Row) throws -> Interface.Property {
        try Interface.Property(row.name.rawValue, row.type, emitsChangedSignal: row.emits) { access in
            let number = try Self.number(of: access.path)
            let result: Value
            if let value = row.value {
                result = value(try self.withSession { state in try state.properties(of: number) })
            } else {
                result = .string(try self.withSession { state in Route.json(try state.session.window(number).graph.routes) })
            }
            if let recorder = EmittedDocuments.shared, WindowProperties.jsonProperties.contains(row.name.rawValue),
               let text = result.string, !text.isEmpty
            {
                recorder.record(row.name.rawValue, text)
            }
            return result
        }
    }

    /// Window1's methods, one row each; their arguments are the contract's (dbus/org.navsession.Window1.xml).
    func window1Methods() -> [MethodRow] {
        let limits = self.limits
        return [
            MethodRow("StackAppend", .batch { call, _, _ in one(.stackAppend(try spec(call, 0))) }),
            MethodRow("StackDropLast", .batch { call, _, _ in
                one(.stackDropLast(Int(call.arguments[0].uint32 ?? 0)))
            }),
            MethodRow("StackDropToRoot", .batch { _, _, _ in one(.stackDropToRoot) }),
            MethodRow("StackSetRoot", .batch { call, _, _ in
                one(.stackSetRoot(try spec(call, 0), clear: call.arguments[2].bool ?? false))
            }),
            MethodRow("StackSetPath", .batch { call, _, _ in
                one(.stackSetPath(call.arguments[0].stringArray.map { .spec(.screen($0)) }))
            }),
            MethodRow("StackReverse", .batch { _, _, window in
                let origin = window.graph.activeModelID
                return try ReverseStack().commands(in: window.graph, from: origin).map { BatchCommand($0, from: origin) }
            }),
            MethodRow("Present", .batch { call, session, window in
                one(try present(call, 0, session, window))
            }),
            MethodRow(
                "PresentAlert", .batch { call, session, _ in one(.present(.alert(try dialog(call, .alert, session.manifest)))) }),
            MethodRow(
                "PresentConfirmationDialog", .batch { call, session, _ in
                    let source = call.arguments[3].string ?? ""
                    return one(.present(.confirmationDialog(
                        try dialog(call, .confirmationDialog, session.manifest), sourceID: source.isEmpty ? nil : source)))
                }),
            MethodRow("Dismiss", .batch { _, _, _ in one(.dismiss) }),
            MethodRow("DismissJustFromPresented", .batch { _, _, _ in one(.dismissJustFromPresented) }),
            MethodRow("Hide", .batch { _, _, _ in one(.hide) }),
            MethodRow("GoBack", .batch { _, _, _ in one(.goBack) }),
            MethodRow("GoBackToRoot", .batch { _, _, _ in one(.goBackToRoot) }),
            MethodRow("GoBackTo", .batch { call, _, _ in
                let name = call.arguments[0].string ?? ""
                guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
                return one(.goBackTo(.screen(name)))
            }),
            MethodRow("DismissAll", .batch { _, _, _ in one(.dismissAll) }),
            // Back and forward.
            MethodRow("GoForward", .batch { _, _, _ in one(.goForward) }),
            // Undo and redo (Session+Undo.swift): the window back in a state its history keeps.
            MethodRow("Undo", .change({ call, session in
                try session.undo(window: try Self.number(of: call.path), client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
            MethodRow("Redo", .change({ call, session in
                try session.redo(window: try Self.number(of: call.path), client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
            // Prepared models (NavigationWindow+Prepared.swift): the id the screen will have when shown.
            MethodRow("Prepare", .change({ call, session in
                let number = try Self.number(of: call.path)
                return try session.apply(window: number, batch: [BatchCommand(.prepare(try spec(call, 0)))], client: call.client)
            }, reply: { call, _ in
                let number = try Self.number(of: call.path)
                let model = try self.withSession { state in
                    try state.session.window(number).graph.preparedID(for: try spec(call, 0))
                }
                guard let model else { throw BusError(.failed, "the prepared model is not listed") }
                return [.uint64(UInt64(clamping: model.rawValue))]
            })),
            MethodRow("TabsSelectItem", .batch { call, _, _ in
                one(.tabsSelectItem(call.arguments[0].string ?? ""))
            }),
            MethodRow("SwitchModel", .batch { call, _, _ in one(.switchModel(try spec(call, 0))) }),
            MethodRow(
                "SwitchModelWith", .batch { call, _, _ in
                    one(.switchModel(
                        try spec(call, 0), saveState: try tristate(call, 2, "save_state"),
                        restoreState: try tristate(call, 3, "restore_state")))
                }),
            MethodRow("ClearSavedState", .batch { call, _, _ in
                let name = call.arguments[0].string ?? ""
                return one(.clearSavedState(screen: name.isEmpty ? nil : name))
            }),
            MethodRow("Protect", .batch { call, _, _ in
                let dialog = call.arguments[2].string ?? ""
                return one(.protect(
                    model: try optionalID(call.arguments[0]), reason: call.arguments[1].string ?? "",
                    dialog: dialog.isEmpty ? nil : dialog))
            }),
            MethodRow("Unprotect", .batch { call, _, _ in
                one(.unprotect(model: try optionalID(call.arguments[0])))
            }),
            MethodRow("StackAppendAt", .batch { call, _, _ in
                one(.stackAppend(try spec(call, 1)), from: try id(call.arguments[0]))
            }),
            MethodRow("PresentAt", .batch { call, session, window in
                one(try present(call, 1, session, window), from: try id(call.arguments[0]))
            }),
            // Present exactly on a model, replacing what it presents.
            MethodRow(
                "PresentOn", .change({ call, session in
                    let number = try Self.number(of: call.path)
                    let command = try presentOn(call, session, try session.window(number))
                    return try session.apply(window: number, batch: [BatchCommand(command)], client: call.client)
                }, reply: { call, outcome in
                    let started = outcome.changes(of: try Self.number(of: call.path)).first?.started ?? []
                    return [.uint64(UInt64(clamping: outcome.windowVersion ?? 0)), .modelIDs(started)]
                })),
            MethodRow("Show", .batch { call, _, _ in
                let name = call.arguments[0].string ?? ""
                guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
                return one(.show(screen: name, params: call.arguments[1].stringDictionary))
            }),
            MethodRow("PopTo", .batch { call, _, _ in
                let name = call.arguments[0].string ?? ""
                guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
                let params = call.arguments[1].stringDictionary
                return one(.popTo(screen: name, params: params.isEmpty ? nil : params, merge: call.arguments[2].bool ?? false))
            }),
            MethodRow("Replace", .batch { call, _, _ in
                let name = call.arguments[0].string ?? ""
                guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
                return one(.replace(screen: name, params: call.arguments[1].stringDictionary))
            }),
            MethodRow("DismissAt", .batch { call, _, _ in one(.dismiss, from: try id(call.arguments[0])) }),
            MethodRow("PopAt", .batch { call, _, _ in
                one(.pop(count: Int(call.arguments[1].uint32 ?? 0)), from: try id(call.arguments[0]))
            }),
            MethodRow("DismissJustFromPresentedAt", .batch { call, _, _ in
                one(.dismissJustFromPresented, from: try id(call.arguments[0]))
            }),
            MethodRow("HideAt", .batch { call, _, _ in one(.hide, from: try id(call.arguments[0])) }),
            MethodRow("ExecuteAt", .change({ call, session in
                try session.execute(
                    window: try Self.number(of: call.path), commandJSON: call.arguments[1].string ?? "",
                    from: try id(call.arguments[0]), client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
            MethodRow("Apply", .change({ call, session in
                let options = try ApplyOptions(call.arguments[1].stringDictionary)
                return try session.apply(
                    window: try Self.number(of: call.path), batchJSON: call.arguments[0].string ?? "",
                    expectedVersion: options.expectedVersion, transaction: options.transaction, client: call.client)
            }, reply: { call, outcome in
                let started = outcome.changes(of: try Self.number(of: call.path)).first?.started ?? []
                return [.uint64(UInt64(clamping: outcome.windowVersion ?? 0)), .modelIDs(started)]
            })),
            MethodRow("Check", .dryRun({ call, session in
                let options = try ApplyOptions(call.arguments[1].stringDictionary)
                return try session.dryRun(
                    window: try Self.number(of: call.path), batchJSON: call.arguments[0].string ?? "",
                    expectedVersion: options.expectedVersion, transaction: options.transaction, client: call.client)
            }, reply: { _, event in [.uint64(UInt64(clamping: event.version)), .modelIDs(event.started)] })),
            // The two phases of a back gesture (Docs/guards.md, "Back gestures"): asked before the page moves,
            // committed only onto the state the user saw.
            MethodRow("BeginBack", .dryRun({ call, session in
                try session.dryRun(window: try Self.number(of: call.path), batch: [BatchCommand(.goBack)], client: call.client)
            }, reply: { _, event in
                // The version the gesture begins on: GoBack's change is one version after it.
                [.uint64(UInt64(clamping: max(0, event.version - 1))), .modelIDs(event.finished)]
            })),
            MethodRow("CommitBack", .change({ call, session in
                try session.apply(
                    window: try Self.number(of: call.path), batch: [BatchCommand(.goBack)],
                    expectedVersion: Int(clamping: call.arguments[0].uint64 ?? 0), client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
            MethodRow("SetState", .change({ call, session in
                try session.setState(
                    window: try Self.number(of: call.path), stateJSON: call.arguments[0].string ?? "", client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
            MethodRow("SetRoutes", .batch { call, _, _ in
                one(.setRoutes(try Session.routes(fromJSON: call.arguments[0].string ?? "", limits: limits)))
            }),
            MethodRow(
                "SendMessage", .change({ call, session in
                    let number = try Self.number(of: call.path)
                    let target = try id(call.arguments[0])
                    let message = NavigationMessage(
                        call.arguments[1].string ?? "", payload: CommandArguments.payload(call.arguments[2].stringDictionary))
                    let window = try session.window(number)
                    return try session.sendMessage(
                        window: number, to: target.rawValue == 0 ? window.graph.activeModelID : target, message,
                        client: call.client)
                }, reply: { _, _ in [] }), refusedWhenBacklogged: true),
            MethodRow("ReportPopped", .report { call in
                .poppedTo(stack: try id(call.arguments[0]), index: Int(call.arguments[1].uint32 ?? 0))
            }),
            MethodRow("ReportDismissed", .report { call in .dismissedInteractively(try id(call.arguments[0])) }),
            MethodRow("ReportTabSelected", .report { call in
                .selectedTab(tabs: try id(call.arguments[0]), tab: call.arguments[1].string ?? "")
            }),
            MethodRow("ReportActionChosen", .report { call in
                .alertActionChosen(alert: try id(call.arguments[0]), action: call.arguments[1].string ?? "")
            }),
            // Settled versions (SessionService+Settled.swift).
            MethodRow("ReportSettled", .custom { call, bus in
                try self.reportSettled(call, on: bus)
                return []
            }),
            // Per-model observation (SessionService+Followers.swift).
            MethodRow("FollowModel", .custom { call, bus in
                try self.followModel(call, on: bus)
                return []
            }),
            MethodRow("UnfollowModel", .custom { call, bus in
                try self.unfollowModel(call, on: bus)
                return []
            }),
            MethodRow("ReportClosed", .change({ call, session in
                try session.report(window: try Self.number(of: call.path), .windowClosed, client: call.client)
            }, reply: { _, _ in [] })),
            // The snapshot is taken in call order; encoding it (the expensive part, ≈ 100 ns per byte) runs off
            // the bus thread, so no other client's call waits for a large read.
            MethodRow("GetState", .deferred { call, state in
                let window = try state.session.window(try Self.number(of: call.path))
                let snapshot = window.graph.snapshot()
                let policy = window.policy
                return {
                    var bytes = try snapshot.json()
                    // The window's policy beside its graph (not part of a snapshot: SetState leaves it).
                    if let policy, bytes.last == UInt8(ascii: "}") {
                        bytes.removeLast()
                        bytes.append(contentsOf: #","policy":"#.utf8)
                        bytes.append(contentsOf: policy.json.utf8)
                        bytes.append(UInt8(ascii: "}"))
                    }
                    return [.string(String(decoding: bytes, as: UTF8.self))]
                }
            }),
            MethodRow("RegisterRenderer", .change({ call, session in
                guard let client = call.client else { throw BusError(.invalidArgs, "the call has no sender") }
                let number = try Self.number(of: call.path)
                return try session.registerRenderer(
                    window: number, role: call.arguments[0].string ?? "", capabilitiesJSON: call.arguments[1].string ?? "",
                    client: client)
            }, reply: { call, _ in
                // The id just given: the caller's newest registration on the window.
                let number = try Self.number(of: call.path)
                let id = self.state.withLock { state in
                    (try? state.session.window(number))?.renderers.last { $0.client == call.client }?.id
                }
                return [.string(id ?? "")]
            })),
            MethodRow("UnregisterRenderer", .change({ call, session in
                guard let client = call.client else { throw BusError(.invalidArgs, "the call has no sender") }
                let number = try Self.number(of: call.path)
                return try session.unregisterRenderer(window: number, id: call.arguments[0].string ?? "", client: client)
            }, reply: { _, _ in [] })),
            MethodRow("ReportWidthClass", .change({ call, session in
                try session.reportWidthClass(
                    window: try Self.number(of: call.path), call.arguments[0].string ?? "", client: call.client)
            }, reply: { _, _ in [] })),
            MethodRow("GetAnnouncement", .read { call, state in
                let last = try state.session.announcement(
                    window: try Self.number(of: call.path), acceptLanguage: call.arguments[0].string ?? "")
                return [.uint64(UInt64(clamping: last.version)), .string(last.text), .uint64(UInt64(clamping: last.focus.rawValue))]
            }),
            MethodRow("GetTree", .read { call, state in
                [.string(try state.session.window(try Self.number(of: call.path)).graph.debugTree())]
            }),
            MethodRow("GetRoutes", .read { call, state in
                [.string(Route.json(try state.session.window(try Self.number(of: call.path)).graph.routes))]
            }),
            MethodRow("SetParams", .batch { call, _, _ in
                one(.setParams(
                    model: try optionalID(call.arguments[0]), params: call.arguments[1].stringDictionary,
                    merge: !(call.arguments[2].bool ?? false)))
            }),
            MethodRow("PushParams", .batch { call, _, _ in
                one(.pushParams(model: try optionalID(call.arguments[0]), params: call.arguments[1].stringDictionary))
            }),
            // Appearance.
            MethodRow("SetAppearance", .batch { call, session, _ in
                one(.setAppearance(
                    model: try Session.modelReference(text: call.arguments[0].string ?? ""),
                    try session.appearance(json: call.arguments[1].string ?? ""), merge: !(call.arguments[2].bool ?? false)))
            }),
            MethodRow("SetTitle", .batch { call, _, _ in
                one(.setParams(model: try optionalID(call.arguments[0]), params: nil, title: call.arguments[1].string ?? ""))
            }),
            MethodRow("BringToFront", .batch { call, _, _ in
                let screen = call.arguments[0].string ?? "", tag = call.arguments[1].string ?? ""
                switch (screen.isEmpty, tag.isEmpty) {
                case (false, true): return one(.bringToFront(.screen(screen)))
                case (true, false): return one(.bringToFront(.model(.tag(tag))))
                default: throw SessionError.invalidArguments("BringToFront takes a screen or a tag: exactly one non-empty")
                }
            }),
            MethodRow("CancelPending", .change({ call, session in
                try session.cancelPending(window: try Self.number(of: call.path), client: call.client)
            }, reply: { _, _ in [] })),
            // Selectable custom containers.
            MethodRow("SelectChild", .batch { call, _, _ in
                one(.selectChild(
                    container: try optionalID(call.arguments[0]), child: .index(Int(call.arguments[1].uint32 ?? 0))))
            }),
            MethodRow("ReportChildSelected", .report { call in
                .selectedChild(container: try id(call.arguments[0]), child: try id(call.arguments[1]))
            }),
            MethodRow("SetColumnVisibility", .batch { call, _, _ in
                let name = call.arguments[1].string ?? ""
                guard let visibility = ColumnVisibility(rawValue: name) else {
                    throw SessionError.invalidArguments(
                        "unknown column visibility '\(name.prefix(64))'; expected "
                            + ColumnVisibility.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return one(.setColumnVisibility(container: try optionalID(call.arguments[0]), visibility: visibility))
            }),
            MethodRow("ReportCollapsed", .report { call in
                .collapsed(split: try id(call.arguments[0]), collapsed: call.arguments[1].bool ?? false)
            }),
            MethodRow("ModelForTag", .read { call, state in
                let tag = call.arguments[0].string ?? ""
                let graph = try state.session.window(try Self.number(of: call.path)).graph
                guard let id = graph.model(forTag: tag) else { throw SessionError.navigation(.unknownTag(tag)) }
                return [.uint64(UInt64(clamping: id.rawValue))]
            }),
            // Renderer state (model 0 = the window itself).
            MethodRow("SetRendererState", .batch { call, session, _ in
                one(.setRendererState(
                    model: try optionalID(call.arguments[0]),
                    try session.rendererState(json: call.arguments[1].string ?? "")))
            }),
        ] + scheduledMethods()  // Scheduled batches
            + historyMethods()  // History, state at a version, trace
    }

    /// Window1's signals, as the contract declares them (dbus/org.navsession.Window1.xml).
    static func window1Signals() throws -> [Interface.Signal] { try declaredWindow1Signals.get() }

    /// Window1's signals, parsed once (every window exports them).
    private static let declaredWindow1Signals = Result {
        try NavSessionInterface.window1Contract.signals.map { signal in
            try Interface.Signal(
                signal.name,
                arguments: try signal.arguments.map { Interface.Argument($0.name, try SignatureType(parsing: $0.signature)) })
        }
    }
}

// MARK: Arguments

/// A model id argument.
private func id(_ value: Value) throws -> ModelID { try CommandArguments.modelID(value.uint64 ?? 0) }

/// A model id argument where 0 means the executing (active) model.
private func optionalID(_ value: Value) throws -> ModelReference? {
    let raw = value.uint64 ?? 0
    return raw == 0 ? nil : .id(try CommandArguments.modelID(raw))
}

/// One command as a batch.
private func one(_ command: NavigationCommand, from: ModelID? = nil) -> [BatchCommand] { [BatchCommand(command, from: from)] }

/// A `SwitchModelWith` flag: `""` (the default: the manifest's `savedStates`, restoring when something is kept),
/// `"true"` or `"false"`.
private func tristate(_ call: MethodCall, _ index: Int, _ name: String) throws -> Bool? {
    switch call.arguments[index].string ?? "" {
    case "": return nil
    case "true": return true
    case "false": return false
    case let text: throw SessionError.invalidArguments("\(name) must be \"\", \"true\" or \"false\", not '\(text)'")
    }
}

/// The screen and its params at `index` and `index + 1`; the window checks the screen against the manifest.
private func spec(_ call: MethodCall, _ index: Int) throws -> ModelSpec {
    let name = call.arguments[index].string ?? ""
    guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
    return .screen(name, params: call.arguments[index + 1].stringDictionary)
}

/// The presentation kind, screen and params at `index`…`index + 2`.
private func present(_ call: MethodCall, _ index: Int, _ session: Session, _ window: SessionWindow) throws -> NavigationCommand {
    let kind = call.arguments[index].string ?? ""
    let name = call.arguments[index + 1].string ?? ""
    guard !name.isEmpty else { throw SessionError.invalidArguments("the screen name is empty") }
    return .present(try session.presentation(
        kind: kind, screen: name, params: call.arguments[index + 2].stringDictionary, in: window.number))
}

/// `PresentOn(model, kind, screen, params, transition, replace)`: the model as text (an id or `tag:<tag>`), the
/// presentation as for `Present`, `""` for no transition.
private func presentOn(_ call: MethodCall, _ session: Session, _ window: SessionWindow) throws -> NavigationCommand {
    guard case .present(var presentation) = try present(call, 1, session, window) else {
        throw SessionError.invalidArguments("not a presentation")
    }
    let transition = call.arguments[4].string ?? ""
    if !transition.isEmpty {
        if let problem = PresentationSpec.transitionProblem(transition) { throw SessionError.invalidArguments(problem) }
        presentation.transition = transition
    }
    return .presentOn(
        presentation, on: try CommandArguments.modelReference(call.arguments[0].string ?? ""),
        replace: call.arguments[5].bool ?? false)
}

/// The dialog of `PresentAlert` and `PresentConfirmationDialog` (title, message, actions).
private func dialog(_ call: MethodCall, _ kind: DialogDeclaration.Kind, _ manifest: Manifest) throws -> DialogContent {
    try CommandArguments.dialog(
        title: call.arguments[0].string ?? "", message: call.arguments[1].string ?? "",
        actions: call.arguments[2].stringArray, kind: kind, manifest: manifest)
}
