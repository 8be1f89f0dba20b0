import DBusKit
import NavSessionInterface
import NavigationCore
import NavigationSession
import Synchronization

extension SessionService {
    /// `org.navsession.Session1` (dbus/org.navsession.Session1.xml): its methods (``session1Methods()``) as
    /// data, each one ``Session`` call.
    func sessionInterface() throws -> Interface {
        typealias S = NavSessionInterface.Session1
        return try Interface(
            S.name,
            methods: try bound(session1Methods(), to: DeclaredMethods.session1).map(method),
            properties: [
                Interface.Property(S.windows, .array(.objectPath), get: { _ in try self.windowList() }),
                Interface.Property(
                    S.scenes, .array(.string), get: { _ in .strings(self.manifest.sceneNames) }),
                Interface.Property(
                    S.screens, .array(.string), get: { _ in .strings(self.manifest.screenNames) }),
                Interface.Property(
                    S.screenTitles, .dictionary(key: .string, value: .string),
                    get: { _ in .stringDictionary(self.manifest.screenTitles) }),
                Interface.Property(
                    S.guards, .dictionary(key: .string, value: .string),
                    get: { _ in self.state.withLock { self.guards($0.session) } }),
                Interface.Property(S.version, .uint64, get: { _ in .uint64(self.state.withLock { $0.session.version }) }),
                Interface.Property(
                    S.applicationID, .string, emitsChangedSignal: .const, get: { _ in .string(self.applicationID) }),
                // Restore by reason: why the daemon started, what was set aside, the instance.
                Interface.Property(
                    S.restoreReason, .string, emitsChangedSignal: .const,
                    get: { _ in .string(self.state.withLock { $0.session.restoreReason.rawValue }) }),
                Interface.Property(
                    S.restoreSetAside, .string, emitsChangedSignal: .const,
                    get: { _ in .string(self.state.withLock { $0.session.restoreSetAside ?? "" }) }),
                Interface.Property(S.instance, .string, emitsChangedSignal: .const, get: { _ in .string(self.instance ?? "") }),
            ])
    }

    /// Session1's methods, one row each; their arguments are the contract's (dbus/org.navsession.Session1.xml).
    func session1Methods() -> [MethodRow] {
        [
            MethodRow("OpenWindow", .change({ call, session in
                try session.openWindow(
                    scene: call.arguments[0].string ?? "", params: call.arguments[1].stringDictionary, client: call.client)
            }, reply: { _, outcome in [.objectPath(try self.path(of: try Self.window(of: outcome)))] })),
            MethodRow("DismissWindow", .change({ call, session in
                try session.dismissWindow(try Self.number(of: call.arguments[0].objectPath ?? call.path), client: call.client)
            }, reply: { _, _ in [] })),
            // A deep link into an open window changes it like a Window1 command.
            MethodRow("OpenURL", .change({ call, session in
                try session.openURL(call.arguments[0].string ?? "", client: call.client)
            }, reply: { _, outcome in [.objectPath(try self.path(of: try Self.window(of: outcome)))] })),
            MethodRow("ListWindows", .read { _, state in
                [try self.windowList(state.session.windows.map(\.number))]
            }),
            MethodRow("Apply", .change({ call, session in
                try session.apply(
                    window: try Self.number(of: call.arguments[0].objectPath ?? call.path),
                    batchJSON: call.arguments[1].string ?? "", client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
            MethodRow("SetCloseOnExit", .custom { call, _ in
                let number = try Self.number(of: call.arguments[0].objectPath ?? call.path)
                let enabled = call.arguments[1].bool ?? false
                guard let sender = call.sender else { throw BusError(.invalidArgs, "the call has no sender") }
                try self.withSession { state in
                    try state.session.setCloseOnExit(
                        window: number, owner: enabled ? sender.rawValue : nil, caller: sender.rawValue)
                }
                return []
            }),
            MethodRow(
                "Plan", .read { call, state in
                    let capabilities = RendererCapabilities(
                        multiDismiss: call.arguments[2].bool == true, pushesInOne: call.arguments[3].bool == true)
                    return [.string(try Session.plan(
                        fromJSON: call.arguments[0].string ?? "", toJSON: call.arguments[1].string ?? "",
                        capabilities: capabilities, limits: self.limits, kinds: state.session.routeKinds))]
                }),
        ] + guardMethods() + closedWindowMethods() + namedSessionMethods()
    }

    /// Recently closed windows (Session+ClosedWindows.swift).
    func closedWindowMethods() -> [MethodRow] {
        [
            MethodRow("ListClosedWindows", .read { _, state in
                [.string(state.session.closedWindowsJSON())]
            }),
        ] + ["ReopenWindow", "UndoCloseWindow"].map { name in
            // UndoCloseWindow is ReopenWindow under the name of the window-level undo.
            MethodRow(name, .change({ call, session in
                let id = call.arguments[0].string ?? ""
                return try session.reopenWindow(id.isEmpty ? nil : id, client: call.client)
            }, reply: { _, outcome in [.objectPath(try self.path(of: try Self.window(of: outcome)))] }))
        }
    }

    /// Named sessions (Session+NamedSessions.swift).
    func namedSessionMethods() -> [MethodRow] {
        [
            MethodRow("SaveSession", .custom { call, _ in
                let name = call.arguments[0].string ?? ""
                var numbers: [WindowNumber] = []
                for value in call.arguments[1].arrayElements ?? [] {
                    guard let path = value.objectPath else { throw BusError(.invalidArgs, "windows must be object paths") }
                    numbers.append(try Self.number(of: path))
                }
                try self.withSession { state in try state.session.saveSession(name, windows: numbers, client: call.client) }
                return []
            }),
            MethodRow("ListSessions", .read { _, state in [.string(state.session.namedSessionsJSON())] }),
            MethodRow("OpenSession", .change({ call, session in
                try session.openSession(call.arguments[0].string ?? "", client: call.client)
            }, reply: { _, outcome in
                let opened = outcome.events.compactMap { event -> WindowNumber? in
                    if case .windowOpened(let number, _) = event { return number }
                    return nil
                }
                return [.array(.objectPath, try opened.map { .objectPath(try self.path(of: $0)) })]
            })),
            // Move and merge (Session+Move.swift): a branch to another window, or to a new one.
            MethodRow("MoveModel", .change({ call, session in
                let number = try Self.windowNumber(call.arguments[0].uint64 ?? 0, "window")
                let raw = call.arguments[1].uint64 ?? 0
                guard raw <= UInt64(WindowSnapshot.maxCounter) else {
                    throw BusError(.invalidArgs, "model \(raw) is not a model id")
                }
                let graph = try session.window(number).graph
                let model = raw == 0 ? graph.activeModelID : ModelID(rawValue: Int(raw))
                let target = call.arguments[2].uint64 ?? 0
                return try session.moveModel(
                    window: number, model: model, to: target == 0 ? 0 : try Self.windowNumber(target, "to_window"),
                    placementJSON: call.arguments[3].string ?? "", client: call.client)
            }, reply: { _, outcome in
                let number = try Self.window(of: outcome)
                return [.uint64(UInt64(number)), .uint64(UInt64(clamping: outcome.windowVersion ?? 0))]
            })),
            // Window groups (Session+Groups.swift).
            MethodRow("GroupWindows", .change({ call, session in
                var numbers: [WindowNumber] = []
                for value in call.arguments[1].arrayElements ?? [] {
                    guard let path = value.objectPath else { throw BusError(.invalidArgs, "windows must be object paths") }
                    numbers.append(try Self.number(of: path))
                }
                return try session.groupWindows(call.arguments[0].string ?? "", windows: numbers, client: call.client)
            }, reply: { _, _ in [] })),
            // Built-in analytics (Session+Statistics.swift).
            MethodRow("GetStats", .read { call, state in
                [.string(try state.session.statisticsReport(queryJSON: call.arguments[0].string ?? ""))]
            }),
            // Window policies (Session+Policy.swift).
            MethodRow("SetWindowPolicy", .change({ call, session in
                let number = try Self.windowNumber(call.arguments[0].uint64 ?? 0, "window")
                return try session.setWindowPolicy(
                    window: number, policyJSON: call.arguments[1].string ?? "", client: call.client)
            }, reply: { _, _ in [] })),
            // Changing the manifest (Session+Reload.swift).
            MethodRow("CheckManifest", .read { call, state in
                [.string(try state.session.checkManifest(call.arguments[0].string ?? ""))]
            }),
            MethodRow("ReloadManifest", .change({ call, session in
                try self.reload(session, call.arguments[0].string ?? "")
            }, reply: { _, _ in [] })),
            MethodRow("DeleteSession", .custom { call, _ in
                let name = call.arguments[0].string ?? ""
                try self.withSession { state in try state.session.deleteSession(name) }
                return []
            }),
        ]
    }

    /// The open windows' paths as an `ao` (of `numbers`, else read under the session's lock).
    func windowList(_ numbers: [WindowNumber]? = nil) throws -> Value {
        .array(.objectPath, try (numbers ?? windowNumbers()).map { .objectPath(try self.path(of: $0)) })
    }

    /// A window number given as `t`: 1 up to the highest window number, else `UnknownObject` (no such window).
    static func windowNumber(_ raw: UInt64, _ name: String) throws(BusError) -> WindowNumber {
        guard let number = WindowNumber(exactly: raw), number > 0 else {
            throw BusError(.unknownObject, "\(name) \(raw): no such window")
        }
        return number
    }

    /// The window an outcome returned (every window-returning operation sets it).
    static func window(of outcome: SessionOutcome) throws(BusError) -> WindowNumber {
        guard let number = outcome.window else { throw BusError(.failed, "the operation returned no window") }
        return number
    }
}
