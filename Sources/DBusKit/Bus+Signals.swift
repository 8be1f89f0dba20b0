internal import CDBus

extension Bus {
    /// Emits a signal.
    ///
    /// ```swift
    /// try await bus.emit(path: windowPath, interface: windowInterface, member: try MemberName("Closed"),
    ///                    arguments: [.uint32(7)])
    /// ```
    /// - Parameter destination: send unicast to one peer instead of broadcasting.
    /// - Throws: ``ValidationError`` for invalid arguments; ``BusError`` `LimitsExceeded` when the signal
    ///   would exceed ``maximumOutgoingMessageSize`` (nothing is sent); ``ConnectionError`` when disconnected.
    public func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [Value] = [],
        destination: BusName? = nil
    ) throws {
        let wire = try WireMessage.build(
            .signal, serial: nextWireSerial(), path: path, interface: interface, member: member,
            destination: destination?.rawValue, body: arguments)
        try sendMarshalled(wire, arguments, types: nil, subject: "signal \(member.rawValue)", kind: "signals") {
            let created = path.rawValue.withCString { p in
                interface.rawValue.withCString { i in
                    member.rawValue.withCString { m in dbus_message_new_signal(p, i, m) }
                }
            }
            guard let message = created else { throw ConnectionError(.outOfMemory, "cannot create a signal") }
            if let destination {
                _ = destination.rawValue.withCString { dbus_message_set_destination(message, $0) }
            }
            return message
        }
        let size = wire?.size ?? MessageEncoder.estimatedSize(of: arguments)
        // A unicast signal waits in one peer's queue until it reads: counted against that peer like a reply
        // (``isBehind(_:)``), not as a broadcast.
        if let destination { noteReply(size, to: destination.rawValue) } else { noteSignal(size) }
    }

    /// Emits one signal unicast to each of `destinations`: the body marshalled once, the header's path, interface and
    /// member once, a serial and a destination per peer. A signal many clients follow costs one encoding, not one per
    /// client.
    /// - Throws: as ``emit(path:interface:member:arguments:destination:)``; the peers before a failure got it.
    public func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [Value], destinations: [BusName]
    ) throws {
        guard let body = try WireMessage.Body(arguments) else {
            for destination in destinations {
                try emit(path: path, interface: interface, member: member, arguments: arguments, destination: destination)
            }
            return
        }
        // The header's path, interface and member written once too: per peer, only the serial and destination.
        let prefix = WireMessage.headerPrefix(.signal, path: path, interface: interface, member: member, body: body)
        for destination in destinations {
            try sendSignal(body, prefix: prefix, member: member, destination: destination.rawValue)
        }
    }

    /// Sends a signal whose body is already marshalled: the header assembled (for `destination`, if any), the size
    /// checked (``sendChecked(_:subject:kind:)``), and the bytes counted against that peer like a reply, or as a
    /// broadcast.
    func sendSignal(
        _ body: WireMessage.Body, path: ObjectPath, interface: InterfaceName, member: MemberName, destination: String? = nil
    ) throws {
        try sendSignal(
            body, prefix: WireMessage.headerPrefix(.signal, path: path, interface: interface, member: member, body: body),
            member: member, destination: destination)
    }

    /// ``sendSignal(_:path:interface:member:destination:)`` with the header's first part already made
    /// (``WireMessage/headerPrefix(_:path:interface:member:replySerial:body:)``).
    func sendSignal(
        _ body: WireMessage.Body, prefix: consuming [UInt8], member: MemberName, destination: String?
    ) throws {
        let wire = WireMessage.assemble(
            prefix: consume prefix, serial: nextWireSerial(), destination: destination, body: body)
        try sendChecked(wire, subject: "signal \(member.rawValue)", kind: "signals")
        if let destination { noteReply(wire.size, to: destination) } else { noteSignal(wire.size) }
    }

    /// Sends `wire`, which DBusKit marshalled, after the check of ``maximumOutgoingMessageSize`` (exact: the bytes
    /// are all there).
    /// - Throws: ``BusError`` `LimitsExceeded` above the limit (nothing is sent); ``ConnectionError`` when
    ///   disconnected.
    ///
    /// `subject` is built only for the error: its text (a member's name interpolated) would otherwise cost an
    /// allocation on every signal.
    func sendChecked(_ wire: WireMessage, subject: @autoclosure () -> String, kind: String) throws {
        guard wire.size <= maximumOutgoingMessageSize else {
            throw outgoingTooLarge("\(subject()) would be", wire.size, kind)
        }
        try sendWire(wire)
    }

    /// Whether `peer` has not read at least `bytes` of what this connection sent it (replies and unicast signals),
    /// as far as the bus last said (or its last answered Ping showed). A service stops sending a peer that is
    /// behind what it only streams to it (followed changes), so a client that does not read loses its own
    /// stream, never anyone else's service.
    public func isBehind(_ peer: BusName, by bytes: Int = 1 << 20) -> Bool {
        replyLedger.unconfirmed(of: peer.rawValue) >= bytes
            || (replyLedger.total >= ReplyLedger.totalBudget && replyLedger.unconfirmed(of: peer.rawValue) >= ReplyLedger.pingThreshold)
    }

    /// Sends a signal or a reply DBusKit marshalled: `wire`, built in one pass (``WireMessage``), or — when the
    /// values hold a file descriptor, which only libdbus can attach — the message `libdbusMessage` makes, with
    /// the values appended by libdbus's iterator (``MessageEncoder``). Either is checked against
    /// ``maximumOutgoingMessageSize`` (exactly for `wire`, ``sendChecked(_:subject:kind:)``; by an upper estimate before
    /// libdbus marshals).
    /// - Parameters:
    ///   - subject: what is sent, for the error ("signal Changed", "the reply").
    ///   - kind: "signals" or "replies", for the error.
    /// - Throws: ``BusError`` `LimitsExceeded` above the limit (nothing is sent); ``ValidationError`` for values
    ///   libdbus refuses; ``ConnectionError`` when disconnected.
    func sendMarshalled(
        _ wire: WireMessage?, _ values: [Value], types: [SignatureType]?, subject: @autoclosure () -> String,
        kind: String, libdbusMessage: () throws -> OpaquePointer
    ) throws {
        if let wire { return try sendChecked(wire, subject: subject(), kind: kind) }
        let size = MessageEncoder.estimatedSize(of: values)
        guard size <= maximumOutgoingMessageSize else {
            throw outgoingTooLarge("\(subject()) would be about", size, kind)
        }
        let message = try libdbusMessage()
        defer { dbus_message_unref(message) }
        if let types {
            try MessageEncoder.append(values, as: types, to: message)
        } else {
            try MessageEncoder.append(values, to: message)
        }
        try send(message)
    }

    /// Subscribes to signals matching `rule`; the rule is active on the bus when this returns.
    ///
    /// The stream finishes when the connection closes. Ending iteration (or cancelling the iterating task)
    /// removes the rule from the bus.
    ///
    /// ```swift
    /// let changes = try await bus.signals(matching: MatchRule(interface: .properties, member: propertiesChanged))
    /// for await signal in changes { ... }
    /// ```
    /// - Throws: ``BusError`` when the bus rejects the rule; ``ConnectionError`` when disconnected.
    public func signals(matching rule: MatchRule) async throws -> AsyncStream<Signal> {
        try rule.validate()
        let id = nextID
        nextID += 1
        let (stream, continuation) = AsyncStream<Signal>.makeStream(bufferingPolicy: .unbounded)
        // Registered before AddMatch so a signal arriving right after the bus accepts the rule is kept.
        subscriptions[id] = Subscription(rule: rule, continuation: continuation)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.unsubscribe(id) }
        }
        do {
            _ = try await call(
                destination: .bus, path: Self.busPath, interface: .bus, member: MemberName(trusted: "AddMatch"),
                arguments: [.string(rule.text)])
        } catch {
            subscriptions[id] = nil
            continuation.finish()
            throw error
        }
        return stream
    }

    func unsubscribe(_ id: UInt64) {
        guard let subscription = subscriptions.removeValue(forKey: id), let connection, !isDisconnected else {
            return
        }
        flushOutgoing()
        // Fire-and-forget: with a NULL error libdbus does not wait for the reply.
        subscription.rule.text.withCString { dbus_bus_remove_match(connection, $0, nil) }
    }

    func finishSubscriptions() {
        let all = subscriptions.values
        subscriptions.removeAll()
        for subscription in all { subscription.continuation.finish() }
    }

    /// Hands a received signal to every matching subscription, decoding it at most once.
    func deliverSignal(_ message: OpaquePointer) {
        guard !subscriptions.isEmpty,
              let path = LibDBus.path(message), let interface = LibDBus.interface(message),
              let member = LibDBus.member(message),
              let arguments = try? MessageDecoder().decodeBody(of: message)
        else { return }
        let signal = Signal(
            sender: LibDBus.sender(message).map(BusName.init(trusted:)), path: ObjectPath(trusted: path),
            interface: InterfaceName(trusted: interface), member: MemberName(trusted: member), arguments: arguments)
        for subscription in subscriptions.values where subscription.rule.matches(signal) {
            subscription.continuation.yield(signal)
        }
    }

    static let busPath = ObjectPath(trusted: "/org/freedesktop/DBus")
}
