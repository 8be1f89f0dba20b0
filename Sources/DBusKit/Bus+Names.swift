extension Bus {
    /// Asks the bus for a well-known name.
    ///
    /// Export objects first so no call reaches the name with nothing behind it. Ownership changes later
    /// arrive on ``nameEvents``.
    ///
    /// ```swift
    /// let reply = try await bus.requestName(try BusName("org.navsession.Demo"), options: [.doNotQueue])
    /// guard reply == .primaryOwner else { ... }
    /// ```
    /// - Throws: ``BusError`` when the bus refuses (e.g. `AccessDenied`); ``ConnectionError`` when disconnected.
    public func requestName(_ name: BusName, options: RequestNameOptions = []) async throws -> RequestNameReply {
        let reply = try await callBus("RequestName", [.string(name.rawValue), .uint32(options.rawValue)])
        guard let code = reply.first?.uint32, let result = RequestNameReply(rawValue: code) else {
            throw BusError(.failed, "unexpected RequestName reply \(reply)")
        }
        return result
    }

    /// Gives a well-known name back to the bus.
    /// - Throws: ``BusError`` or ``ConnectionError``.
    public func releaseName(_ name: BusName) async throws -> ReleaseNameReply {
        let reply = try await callBus("ReleaseName", [.string(name.rawValue)])
        guard let code = reply.first?.uint32, let result = ReleaseNameReply(rawValue: code) else {
            throw BusError(.failed, "unexpected ReleaseName reply \(reply)")
        }
        return result
    }

    /// Whether any connection currently owns `name`.
    /// - Throws: ``BusError`` or ``ConnectionError``.
    public func nameHasOwner(_ name: BusName) async throws -> Bool {
        try await callBus("NameHasOwner", [.string(name.rawValue)]).first?.bool ?? false
    }

    /// Returns once `name` has no owner, e.g. when a client whose unique name you recorded disconnects.
    ///
    /// Subscribes to `NameOwnerChanged` for the name first and then asks `NameHasOwner`, so a client that
    /// leaves at any moment is noticed. Unique names are never reused, so this fires at most once for them.
    ///
    /// ```swift
    /// Task { try await bus.waitUntilNameVanishes(call.sender!); await closeWindows(of: call.sender!) }
    /// ```
    /// - Throws: ``ConnectionError`` `.disconnected` if the connection drops first; `CancellationError`
    ///   when the waiting task is cancelled.
    public func waitUntilNameVanishes(_ name: BusName) async throws {
        let rule = MatchRule(
            sender: .bus, path: Self.busPath, interface: .bus, member: MemberName(trusted: "NameOwnerChanged"),
            arguments: [0: name.rawValue])
        let changes = try await signals(matching: rule)
        if try await !nameHasOwner(name) { return }
        for await change in changes {
            if change.arguments.count == 3, change.arguments[2].string == "" { return }
        }
        try Task.checkCancellation()
        throw ConnectionError(.disconnected, "the connection closed while watching \(name)")
    }

    private func callBus(_ member: String, _ arguments: [Value]) async throws -> [Value] {
        try await call(
            destination: .bus, path: Self.busPath, interface: .bus, member: MemberName(trusted: member),
            arguments: arguments)
    }
}
