internal import CDBus

extension Bus {
    /// Calls a method and suspends until its reply arrives. Never blocks a thread.
    ///
    /// ```swift
    /// let reply = try await bus.call(
    ///     destination: try BusName("org.navsession.Demo"), path: try ObjectPath("/org/navsession/Demo"),
    ///     interface: try InterfaceName("org.navsession.Demo1"), member: try MemberName("Echo"),
    ///     arguments: [.string("hi")])
    /// ```
    /// - Parameters:
    ///   - destination: the peer; `nil` only on peer-to-peer connections.
    ///   - interface: `nil` sends no interface field (the callee then dispatches by member name).
    ///   - timeout: how long to wait; the default is libdbus's 25 s.
    /// - Returns: the reply's arguments.
    /// - Throws: ``BusError`` for an error reply; ``ConnectionError`` `.timedOut` when no reply came in time,
    ///   `.disconnected` when the connection is (or goes) down; `CancellationError` when the task is
    ///   cancelled (the pending call is cancelled too); ``ValidationError`` for arguments libdbus would reject.
    public func call(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [Value] = [], timeout: Duration = .seconds(25)
    ) async throws -> [Value] {
        let message = try makeMethodCall(destination, path, interface, member, arguments)
        defer { dbus_message_unref(message) }
        let id = nextID
        nextID += 1
        let milliseconds = timeout.libdbusMilliseconds
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let call = PendingCall(id: id, bus: self, continuation: continuation)
                guard !Task.isCancelled else {
                    call.finish(.failure(CancellationError()))
                    return
                }
                guard let connection, !isDisconnected else {
                    call.finish(.failure(ConnectionError(.disconnected, "the connection is closed")))
                    return
                }
                var pending: OpaquePointer?
                flushOutgoing()
                guard dbus_connection_send_with_reply(connection, message, &pending, milliseconds) != 0
                else {
                    call.finish(.failure(ConnectionError(.outOfMemory, "cannot send the call")))
                    return
                }
                guard let pending else {
                    call.finish(.failure(ConnectionError(.disconnected, "the connection is closed")))
                    return
                }
                call.pending = pending
                let retained = Unmanaged.passRetained(call).toOpaque()
                guard dbus_pending_call_set_notify(pending, pendingNotify, retained, releasePendingCall) != 0 else {
                    Unmanaged<PendingCall>.fromOpaque(retained).release()
                    call.finish(.failure(ConnectionError(.outOfMemory, "cannot watch the reply")))
                    return
                }
                pendingCalls[id] = call
            }
        } onCancel: {
            Task { await self.cancelCall(id) }
        }
    }

    /// Sends a method call that expects no reply (NO_REPLY_EXPECTED); returns once it is queued.
    /// - Throws: ``ConnectionError`` when disconnected; ``ValidationError`` for invalid arguments.
    public func callWithoutReply(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [Value] = []
    ) throws {
        let message = try makeMethodCall(destination, path, interface, member, arguments)
        defer { dbus_message_unref(message) }
        dbus_message_set_no_reply(message, 1)
        try send(message)
    }

    func cancelCall(_ id: UInt64) {
        guard let call = pendingCalls.removeValue(forKey: id) else { return }
        call.finish(.failure(CancellationError()))
    }

    func failPendingCalls() {
        let calls = pendingCalls.values
        pendingCalls.removeAll()
        for call in calls { call.finish(.failure(ConnectionError(.disconnected, "the connection closed"))) }
    }

    /// Completes a call from libdbus's notify; maps local NoReply to timeout or disconnect.
    func complete(_ call: PendingCall) {
        pendingCalls[call.id] = nil
        guard let pending = call.pending, let reply = dbus_pending_call_steal_reply(pending) else {
            call.finish(.failure(ConnectionError(.disconnected, "no reply")))
            return
        }
        defer { dbus_message_unref(reply) }
        // Not `Result { … }`: Swift checks the executor dynamically in an isolated closure passed to it.
        do {
            call.finish(.success(try decodeReply(reply)))
        } catch {
            call.finish(.failure(error))
        }
    }

    private func decodeReply(_ reply: OpaquePointer) throws -> [Value] {
        let body = try MessageDecoder().decodeBody(of: reply)
        guard dbus_message_get_type(reply) == LibDBus.messageTypeError else { return body }
        let name = LibDBus.errorName(reply) ?? ErrorName.failed.rawValue
        let text = body.first?.string ?? ""
        // libdbus makes the NoReply for a timeout or a dropped connection itself, without a sender.
        if name == ErrorName.noReply.rawValue, dbus_message_get_sender(reply) == nil {
            if isDisconnected || connection.map({ dbus_connection_get_is_connected($0) == 0 }) ?? true {
                throw ConnectionError(.disconnected, text)
            }
            throw ConnectionError(.timedOut, text)
        }
        throw BusError(ErrorName(trusted: name), text)
    }

    func makeMethodCall(
        _ destination: BusName?, _ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName,
        _ arguments: [Value]
    ) throws -> OpaquePointer {
        try Self.newMethodCall(destination, path, interface, member, arguments)
    }

    /// A new method-call message (the caller unrefs it).
    static func newMethodCall(
        _ destination: BusName?, _ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName,
        _ arguments: [Value]
    ) throws -> OpaquePointer {
        let created = path.rawValue.withCString { pathPointer in
            member.rawValue.withCString { memberPointer in
                withOptionalCString(destination?.rawValue) { destinationPointer in
                    withOptionalCString(interface?.rawValue) { interfacePointer in
                        dbus_message_new_method_call(destinationPointer, pathPointer, interfacePointer, memberPointer)
                    }
                }
            }
        }
        guard let message = created else { throw ConnectionError(.outOfMemory, "cannot create a message") }
        do {
            try MessageEncoder.append(arguments, to: message)
        } catch {
            dbus_message_unref(message)
            throw error
        }
        return message
    }

    /// Queues a message for sending; the bus thread's loop writes it out.
    func send(_ message: OpaquePointer) throws(ConnectionError) {
        guard let connection, !isDisconnected else {
            throw ConnectionError(.disconnected, "the connection is closed")
        }
        flushOutgoing()
        if dbus_connection_send(connection, message, nil) == 0 {
            throw ConnectionError(.outOfMemory, "cannot queue the message")
        }
    }
}

func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// Reply notification; `data` is the `PendingCall` retained for libdbus and released by `releasePendingCall`.
private let pendingNotify: DBusPendingCallNotifyFunction = { _, data in
    guard let data else { return }
    let call = Unmanaged<PendingCall>.fromOpaque(data).takeUnretainedValue()
    guard let bus = call.bus else {
        call.finish(.failure(ConnectionError(.disconnected, "the bus was released")))
        return
    }
    // The raw address crosses into the isolated closure because PendingCall is not Sendable; same thread.
    let address = Int(bitPattern: data)
    bus.onBusThread { bus in
        guard let raw = UnsafeMutableRawPointer(bitPattern: address) else { return }
        bus.complete(Unmanaged<PendingCall>.fromOpaque(raw).takeUnretainedValue())
    }
}

private let releasePendingCall: DBusFreeFunction = { data in
    guard let data else { return }
    Unmanaged<PendingCall>.fromOpaque(data).release()
}

extension Duration {
    /// The duration as libdbus's reply timeout: whole milliseconds, at least 1 (0 and negatives would mean "no
    /// timeout" or the default), saturating at `Int32.max` (about 24.8 days) however long the duration is.
    var libdbusMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .max }
        let total = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return total.overflow ? .max : max(Int32(clamping: total.partialValue), 1)
    }
}
