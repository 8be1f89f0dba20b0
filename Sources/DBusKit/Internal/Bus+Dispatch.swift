internal import ProcessSupport
internal import CDBus

/// The object server's dispatch: one path from libdbus to a handler and back to a reply.
///
/// Every call takes the same steps on the bus thread: ``receiveMethodCall(_:)`` (libdbus's callback) →
/// ``dispatch(_:)`` (one lookup: object, interface, member, signature; then the handler or the standard
/// interface runs) → ``reply(to:with:)``. Only a handler that awaits (an `async` method, a synchronous one's
/// ``SynchronousReply/completing(_:)``) leaves a part to finish later; calls that arrive meanwhile queue in
/// ``incoming`` and take the same path, in arrival order, when it is done.
extension Bus {
    /// The part of a call that awaits (run on the bus's executor; its values are the reply), with what the
    /// reply needs.
    struct Pending: Sendable {
        let work: nonisolated(nonsending) @Sendable () async throws -> [Value]
        let types: [SignatureType]
        /// The call, for the fault handler: `interface.member at path`.
        let place: String
    }

    /// Called by the filter (``filter(_:)``) on the bus thread for every method call.
    func receiveMethodCall(_ message: OpaquePointer) -> DBusHandlerResult {
        guard dbus_message_get_type(message) == LibDBus.messageTypeMethodCall, !isDisconnected else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        switch replyLedger.total < ReplyLedger.peerBudget ? .admit : replyLedger.admission(of: LibDBus.sender(message)) {
        case .admit: break
        case .refuse(let reason):
            reply(to: message, with: .error(BusError(.limitsExceeded, reason)))
            return DBUS_HANDLER_RESULT_HANDLED
        case .ignore:
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if isDraining || isHoldingCalls {
            // Behind a call that still awaits, or held until the service is ready: handled in arrival order
            // later. The queue is bounded so a flood meanwhile costs the flooder errors, not the daemon memory.
            guard incoming.count - incomingHead < Self.maximumQueuedCalls else {
                reply(to: message, with: .error(BusError(
                    .limitsExceeded, "\(Self.maximumQueuedCalls) calls are already waiting to be handled; try again")))
                return DBUS_HANDLER_RESULT_HANDLED
            }
            incoming.append(dbus_message_ref(message))
        } else if let pending = dispatch(message) {
            isDraining = true
            let held = UncheckedMessage(pointer: dbus_message_ref(message))
            Task { await self.finish(held.pointer, pending) }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Starts handling the calls held since ``holdIncomingCalls()``, in arrival order.
    func drainHeldCalls() {
        guard !isDraining, incomingHead < incoming.count else { return }
        isDraining = true
        Task { await self.finish(nil, nil) }
    }

    /// Awaits `pending` (when there is one), replies to `message`, then handles the calls that queued
    /// meanwhile, each through ``dispatch(_:)``, until none is left (or they are held again).
    private func finish(_ message: OpaquePointer?, _ pending: Pending?) async {
        var current: (message: OpaquePointer, pending: Pending)?
        if let message, let pending { current = (message, pending) }
        repeat {
            if let (message, pending) = current {
                let outcome: CallOutcome
                do {
                    outcome = .values(try await pending.work(), pending.types)
                } catch {
                    outcome = failure(error, pending.place)
                }
                reply(to: message, with: outcome)
                // Handlers that need a descriptor past their call must dup it (``MethodCall/arguments``).
                receivedDescriptors.closeAll()
                dbus_message_unref(message)
                current = nil
            }
            while current == nil, !isHoldingCalls, incomingHead < incoming.count {
                let next = incoming[incomingHead]
                incomingHead += 1
                if let pending = dispatch(next) {
                    current = (next, pending)
                } else {
                    dbus_message_unref(next)
                }
            }
        } while current != nil
        if incomingHead == incoming.count {
            incoming.removeAll(keepingCapacity: true)
            incomingHead = 0
        }
        isDraining = false
    }

    /// Handles one call: looks up what it addresses once, runs it, and replies — unless part of it awaits,
    /// which is returned (the caller replies with its outcome).
    private func dispatch(_ message: OpaquePointer) -> Pending? {
        let outcome: CallOutcome
        switch resolve(message) {
        case .method(let method, let context):
            do {
                switch method.body {
                case .synchronous(let handler):
                    switch try handler(try checkedCall(method, context), self) {
                    case .values(let values):
                        outcome = .values(values, method.outputTypes)
                    case .completing(let work):
                        return Pending(work: work, types: method.outputTypes, place: context.place)
                    case .held:
                        receivedDescriptors.closeAll()
                        return nil
                    }
                case .deferred(let capture):
                    finishDeferred(message, try capture(try checkedCall(method, context)), method.outputTypes)
                    receivedDescriptors.closeAll()
                    return nil
                case .handler(let handler):
                    let call = try checkedCall(method, context)
                    return Pending(work: { try await handler(call) }, types: method.outputTypes, place: context.place)
                }
            } catch {
                outcome = failure(error, context.place)
            }
        case .standard(let interface, let context):
            do {
                outcome = try handleStandard(interface: interface, context)
                    ?? .error(BusError(.unknownMethod, "\(interface) has no method \(context.member)"))
            } catch {
                outcome = failure(error, context.place)
            }
        case .outcome(let immediate):
            outcome = immediate
        }
        reply(to: message, with: outcome)
        receivedDescriptors.closeAll()
        return nil
    }

    /// What a call addresses.
    private enum Target {
        /// A method of one of the object's own interfaces.
        case method(Interface.Method, CallContext)
        /// Introspectable, Properties or ObjectManager.
        case standard(String, CallContext)
        /// Answered without a handler (an unknown object, interface or method; a parent path's introspection).
        case outcome(CallOutcome)
    }

    /// The one lookup of a call's target: object, then interface (or, without an interface field, the
    /// first of the object's interfaces that declares the member, then the standard ones), then member.
    private func resolve(_ message: OpaquePointer) -> Target {
        let path = ObjectPath(trusted: LibDBus.path(message) ?? "/")
        let member = LibDBus.member(message) ?? ""
        let interface = LibDBus.interface(message)
        guard let object = objects[path] else {
            if hasChildren(path), interface == nil || interface == InterfaceName.introspectable.rawValue,
               member == "Introspect" {
                return .outcome(.values([.string(introspectionXML(for: path, object: nil))], [.string]))
            }
            return .outcome(.error(BusError(.unknownObject, "no object at \(path)")))
        }
        let context = CallContext(
            message: message, path: path, member: member, interface: interface, signature: LibDBus.signature(message),
            object: object)
        if let interface {
            if let declared = object.interface(named: interface) {
                guard let method = declared.method(named: member) else {
                    return .outcome(.error(BusError(.unknownMethod, "\(interface) has no method \(member)")))
                }
                return .method(method, context)
            }
            if Self.standardInterfaces.contains(interface) {
                guard Self.isStandard(member, of: interface, manager: object.isManager) else {
                    return .outcome(.error(BusError(.unknownMethod, "\(interface) has no method \(member)")))
                }
                return .standard(interface, context)
            }
            return .outcome(.error(BusError(.unknownInterface, "\(path) does not implement \(interface)")))
        }
        // No interface field: dispatch by member name, user interfaces first.
        if let method = object.method(named: member) { return .method(method, context) }
        for standard in Self.standardInterfaces where Self.isStandard(member, of: standard, manager: object.isManager) {
            return .standard(standard, context)
        }
        return .outcome(.error(BusError(.unknownMethod, "\(path) has no method \(member)")))
    }

    private static let standardInterfaces = [
        InterfaceName.introspectable.rawValue, InterfaceName.properties.rawValue, InterfaceName.objectManager.rawValue,
    ]

    /// Whether DBusKit implements `member` of a standard interface (ObjectManager only where one is added).
    private static func isStandard(_ member: String, of interface: String, manager: Bool) -> Bool {
        switch interface {
        case InterfaceName.introspectable.rawValue: member == "Introspect"
        case InterfaceName.properties.rawValue: member == "Get" || member == "GetAll" || member == "Set"
        case InterfaceName.objectManager.rawValue: manager && member == "GetManagedObjects"
        default: false
        }
    }

    /// The error reply for a handler's error; an internal fault (`Failed`) is also told to the fault handler.
    private func failure(_ error: any Error, _ place: String) -> CallOutcome {
        let mapped = BusError(mapping: error)
        if mapped.name == .failed {
            faultHandler?("\(place): \(error)")
        }
        return .error(mapped)
    }

    /// Builds a deferred method's reply on a thread of its own and sends it from the bus thread; inline when
    /// ``maximumDeferredReplies`` are already being built.
    ///
    /// Not on the global executor: a `finish` is synchronous and may run long (encoding a large read), and the
    /// cooperative pool has one thread per core, which the process's tasks (signal handling, name watches,
    /// client calls' continuations) need meanwhile.
    private func finishDeferred(_ message: OpaquePointer, _ finish: @escaping @Sendable () throws -> [Value], _ types: [SignatureType]) {
        @Sendable func outcome() -> CallOutcome {
            do {
                return .values(try finish(), types)
            } catch {
                return .error(BusError(mapping: error))
            }
        }
        let peer = LibDBus.sender(message)
        if let refusal = replyLedger.startBuilding(for: peer) {
            reply(to: message, with: .error(BusError(.limitsExceeded, refusal)))
            return
        }
        guard deferredReplies < Self.maximumDeferredReplies else {
            reply(to: message, with: outcome())
            replyLedger.finishedBuilding(for: peer)
            return
        }
        let held = UncheckedMessage(pointer: dbus_message_ref(message))
        let started = DetachedThread.start(name: "DBusKit deferred reply") { [weak self] in
            let result = outcome()
            guard let self else {
                dbus_message_unref(held.pointer)
                return
            }
            Task { await self.completeDeferred(held, result) }
        }
        guard started else {
            // No thread to spare: build it here, in order, as when the bound is reached.
            dbus_message_unref(held.pointer)
            reply(to: message, with: outcome())
            replyLedger.finishedBuilding(for: peer)
            return
        }
        deferredReplies += 1
    }

    private func completeDeferred(_ held: UncheckedMessage, _ outcome: CallOutcome) {
        deferredReplies -= 1
        reply(to: held.pointer, with: outcome)
        replyLedger.finishedBuilding(for: LibDBus.sender(held.pointer))
        dbus_message_unref(held.pointer)
    }

    /// `LimitsExceeded` for an outgoing message of `size` bytes (signals and replies alike): "`subject` N bytes;
    /// `kind` are limited to ``maximumOutgoingMessageSize``".
    func outgoingTooLarge(_ subject: String, _ size: Int, _ kind: String) -> BusError {
        BusError(.limitsExceeded, "\(subject) \(size) bytes; \(kind) are limited to \(maximumOutgoingMessageSize)")
    }

    /// Sends exactly one reply unless the caller set NO_REPLY_EXPECTED.
    private func reply(to call: OpaquePointer, with outcome: CallOutcome) {
        guard !LibDBus.noReply(call), connection != nil, !isDisconnected else { return }
        var failure: BusError?
        switch outcome {
        case .values(let values, let types):
            do {
                let destination = LibDBus.sender(call)
                let wire = try WireMessage.build(
                    .methodReturn, serial: nextWireSerial(), path: nil, interface: nil, member: nil,
                    replySerial: dbus_message_get_serial(call), destination: destination, body: values, types: types)
                let size = wire?.size ?? MessageEncoder.estimatedSize(of: values)
                if let refusal = replyLedger.refusal(ofReply: size, to: destination) {
                    throw BusError(.limitsExceeded, refusal)
                }
                if size > ReplyLedger.smallReply, isBacklogged {
                    throw BusError(
                        .limitsExceeded,
                        "the reply would be \(size) bytes, and the bus holds \(backlogBytes) bytes of this service's "
                            + "messages that clients have not read; try again later")
                }
                try sendMarshalled(wire, values, types: types, subject: "the reply", kind: "replies") {
                    guard let reply = dbus_message_new_method_return(call) else {
                        throw ConnectionError(.outOfMemory, "cannot create a reply")
                    }
                    return reply
                }
                noteReply(size, to: destination)
                return
            } catch let error as BusError where error.name == .limitsExceeded {
                failure = error
            } catch {
                // A handler returned values that do not match its declaration: a bug, reported as Failed.
                failure = BusError(.failed, "reply does not match the declared outputs: \(error)")
            }
        case .error(let error):
            failure = error
        }
        guard let failure else { return }
        let created = failure.name.rawValue.withCString { name in
            failure.message.replacingNUL().withCString { text in dbus_message_new_error(call, name, text) }
        }
        guard let errorReply = created else { return }
        defer { dbus_message_unref(errorReply) }
        try? send(errorReply)
        noteReply(Self.errorReplyOverhead + failure.message.utf8.count, to: LibDBus.sender(call))
    }

    /// About what an error reply's header and name add to its message.
    static let errorReplyOverhead = 160

    /// Counts a reply against its peer's budget (``ReplyLedger``), and once it has enough unconfirmed bytes
    /// finds out what it read: from the bus (``queuedForPeer(_:)``: what the bus actually still holds for it, so a
    /// blocking client that reads its replies but never dispatches a Ping is served indefinitely), or, where the
    /// bus cannot say, from a Ping it answers.
    func noteReply(_ size: Int, to peer: String?) {
        guard let peer, replyLedger.sent(size, to: peer) else { return }
        Task {
            if backlog.peerStatsAvailable, let queued = await queuedForPeer(peer) {
                // What is no longer held was read; the next reply past the threshold asks again.
                replyLedger.measured(peer, queued: queued)
                // Something still held (signals it subscribed to count too, so the figure may be more than our
                // replies): one Ping at a time behind them settles it, without holding up the next question.
                guard queued > 0, replyLedger.startSidePing(peer) else { return }
                let mark = replyLedger.unconfirmed(of: peer)
                let answered = (try? await call(
                    destination: BusName(trusted: peer), path: .root, interface: .peer,
                    member: MemberName(trusted: "Ping"), timeout: Self.pingTimeout)) != nil
                replyLedger.finishedSidePing(peer, confirming: answered ? mark : 0)
                return
            }
            let answer: PingAnswer
            do {
                _ = try await call(
                    destination: BusName(trusted: peer), path: .root, interface: .peer,
                    member: MemberName(trusted: "Ping"), timeout: Self.pingTimeout)
                answer = .answered
            } catch let error as BusError {
                switch error.name {
                case .serviceUnknown, .nameHasNoOwner, .disconnected: answer = .gone
                case .noReply: answer = .silent
                // Any other error came from the peer (a connection that does not implement Peer): it read.
                default: answer = .answered
                }
            } catch {
                answer = .silent
            }
            switch answer {
            case .answered: replyLedger.confirmed(peer)
            case .gone: replyLedger.pingFailed(peer, gone: true)
            case .silent: replyLedger.pingFailed(peer, gone: false)
            }
        }
    }

    private enum PingAnswer { case answered, gone, silent }

    /// The bytes the bus holds for `peer` that it has not read yet (`GetConnectionStats`' `OutgoingBytes`), or nil
    /// when the bus cannot say (no Stats interface: not asked again) or did not answer. A peer that left counts as
    /// having read everything (its queue went with it).
    private func queuedForPeer(_ peer: String) async -> Int? {
        do {
            let reply = try await call(
                destination: .bus, path: ObjectPath(trusted: "/org/freedesktop/DBus"),
                interface: InterfaceName(trusted: "org.freedesktop.DBus.Debug.Stats"),
                member: MemberName(trusted: "GetConnectionStats"), arguments: [.string(peer)], timeout: Self.pingTimeout)
            guard let queued = reply.first?.dictionaryEntries?.first(where: { $0.key.string == "OutgoingBytes" })
                .flatMap({ $0.value.variantValue?.uint32 })
            else {
                backlog.peerStatsAvailable = false
                return nil
            }
            return Int(queued)
        } catch let error as BusError where error.name == .nameHasNoOwner {
            return 0
        } catch let error as BusError where error.name != .noReply {
            backlog.peerStatsAvailable = false
            return nil
        } catch {
            return nil
        }
    }

    /// How long a peer has to answer the Ping behind its replies.
    static let pingTimeout: Duration = .seconds(30)

    struct CallContext {
        let message: OpaquePointer
        let path: ObjectPath
        let member: String
        let interface: String?
        let signature: String
        let object: ExportedObject

        var sender: BusName? { LibDBus.sender(message).map(BusName.init(trusted:)) }

        /// `interface.member at path`, for the fault handler.
        var place: String { "\(interface ?? "?").\(member) at \(path)" }

        func check(_ expected: String) throws(BusError) {
            guard signature == expected else {
                throw BusError(
                    .invalidArgs,
                    "\(member) expects signature '\(expected)' but received '\(signature)'")
            }
        }
    }

    private func decodeArguments(_ context: CallContext) throws(BusError) -> [Value] {
        var decoder = MessageDecoder(maximumArrayLength: limits.maximumArrayLength)
        if dbus_message_contains_unix_fds(context.message) != 0 { decoder.descriptorLog = receivedDescriptors }
        return try decoder.decodeBody(of: context.message)
    }

    /// The call as its handler sees it, once its signature matches the method's inputs.
    private func checkedCall(_ method: Interface.Method, _ context: CallContext) throws(BusError) -> MethodCall {
        try context.check(method.inputSignature)
        return MethodCall(
            bus: self, sender: context.sender, path: context.path,
            interface: context.interface.map(InterfaceName.init(trusted:)), member: MemberName(trusted: context.member),
            arguments: try decodeArguments(context), message: UncheckedMessage(pointer: context.message))
    }

    /// Introspectable, Properties and ObjectManager (``isStandard(_:of:manager:)``); `nil` for another member.
    private func handleStandard(interface: String, _ context: CallContext) throws -> CallOutcome? {
        switch (interface, context.member) {
        case (InterfaceName.introspectable.rawValue, "Introspect"):
            try context.check("")
            return .values([.string(introspectionXML(for: context.path, object: context.object))], [.string])
        case (InterfaceName.properties.rawValue, "Get"):
            let (property, _) = try property(context, signature: "ss")
            guard let getter = property.getter else {
                throw BusError(.accessDenied, "property \(property.name) is write-only")
            }
            let value = try getter(PropertyAccess(bus: self, path: context.path, sender: context.sender))
            guard value.hasType(property.type) else { throw Self.wrongGetterType(property, value) }
            return .values([.variant(value)], [.variant])
        case (InterfaceName.properties.rawValue, "GetAll"):
            try context.check("s")
            let name = try decodeArguments(context).first?.string ?? ""
            guard let declared = context.object.interface(named: name) else {
                throw BusError(.unknownInterface, "\(context.path) does not implement \(name)")
            }
            let all = try allProperties(of: declared, at: context.path, sender: context.sender)
            return .values([all], [.dictionary(key: .string, value: .variant)])
        case (InterfaceName.properties.rawValue, "Set"):
            let (property, arguments) = try property(context, signature: "ssv")
            guard let setter = property.setter else {
                throw BusError(.propertyReadOnly, "property \(property.name) is read-only")
            }
            guard arguments.count == 3, let value = arguments[2].variantValue, value.hasType(property.type) else {
                let received = arguments.count == 3 ? (arguments[2].variantValue?.type.description ?? "?") : "?"
                throw BusError(
                    .invalidArgs,
                    "property \(property.name) expects signature '\(property.type)' but received '\(received)'")
            }
            try setter(value, PropertyAccess(bus: self, path: context.path, sender: context.sender))
            if let interfaceName = arguments.first?.string {
                try propertiesChanged([property.name], interface: InterfaceName(trusted: interfaceName), at: context.path)
            }
            return .values([], [])
        case (InterfaceName.objectManager.rawValue, "GetManagedObjects") where context.object.isManager:
            try context.check("")
            var entries: [DictionaryEntry] = []
            for (path, object) in objects.sorted(by: { $0.key < $1.key })
            where path != context.path && path.isDescendant(of: context.path) && !object.interfaces.isEmpty {
                entries.append(DictionaryEntry(.objectPath(path), try interfacesAndProperties(of: object.interfaces, at: path)))
            }
            let type = SignatureType.dictionary(
                key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)))
            guard case .dictionary(let key, let value) = type else { return nil }
            return .values([.dictionary(key: key, value: value, entries)], [type])
        default:
            return nil
        }
    }

    /// The property a `Get` or `Set` names (its first two arguments), once the call's signature is checked;
    /// with the decoded arguments.
    private func property(_ context: CallContext, signature: String) throws(BusError) -> (Interface.Property, [Value]) {
        try context.check(signature)
        let arguments = try decodeArguments(context)
        let interfaceName = arguments.first?.string ?? ""
        let propertyName = arguments.count > 1 ? (arguments[1].string ?? "") : ""
        guard let declared = context.object.interface(named: interfaceName) else {
            throw BusError(.unknownInterface, "\(context.path) does not implement \(interfaceName)")
        }
        guard let property = declared.property(named: propertyName) else {
            throw BusError(.unknownProperty, "\(interfaceName) has no property \(propertyName)")
        }
        return (property, arguments)
    }

    func hasChildren(_ path: ObjectPath) -> Bool {
        objects.keys.contains { $0 != path && $0.isDescendant(of: path) }
    }
}

/// A received message held across threads until its reply is sent.
///
/// `@unchecked Sendable`: libdbus messages are reference counted with atomic operations and this one is
/// only read (to build a reply) after the detached task hands it back to the bus thread; nothing mutates it.
struct UncheckedMessage: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// A reply a synchronous handler took over (``SynchronousReply/held``), sent later from the bus thread.
public struct HeldReply: Sendable, Hashable {
    let id: UInt64
}

extension Bus {
    /// A held call: its message (referenced) and the types of its reply.
    struct HeldCall: Sendable {
        let message: UncheckedMessage
        let types: [SignatureType]
    }

    /// Replies held at most at once; ``holdReply(to:outputs:)`` throws `LimitsExceeded` beyond.
    public static let maximumHeldReplies = 4096

    /// Takes over the reply to `call` (from its synchronous handler, which then returns
    /// ``SynchronousReply/held``): the bus goes on with later calls, and the reply leaves when
    /// ``sendHeldReply(_:values:)`` or ``sendHeldReply(_:error:)`` is called. Dropped, unsent, when the
    /// connection closes.
    /// - Parameter outputs: the method's output types (the reply is checked against them).
    /// - Throws: ``BusError`` `LimitsExceeded` when ``maximumHeldReplies`` are held; `Failed` for a call that
    ///   is not being handled.
    public func holdReply(to call: MethodCall, outputs: [SignatureType]) throws(BusError) -> HeldReply {
        guard let message = call.message else { throw BusError(.failed, "the call has no message to reply to") }
        guard heldCalls.count < Self.maximumHeldReplies else {
            throw BusError(.limitsExceeded, "\(Self.maximumHeldReplies) replies are already waiting")
        }
        let id = nextHeldID
        nextHeldID += 1
        heldCalls[id] = HeldCall(message: UncheckedMessage(pointer: dbus_message_ref(message.pointer)), types: outputs)
        return HeldReply(id: id)
    }

    /// Sends a held reply's values; does nothing when it was sent already or its connection closed.
    public func sendHeldReply(_ held: HeldReply, values: [Value]) {
        guard let call = heldCalls.removeValue(forKey: held.id) else { return }
        reply(to: call.message.pointer, with: .values(values, call.types))
        dbus_message_unref(call.message.pointer)
    }

    /// Sends a held reply's error (mapped like a handler's, ``BusError/init(mapping:)``).
    public func sendHeldReply(_ held: HeldReply, error: any Error) {
        guard let call = heldCalls.removeValue(forKey: held.id) else { return }
        let mapped = BusError(mapping: error)
        if mapped.name == .failed { faultHandler?("held reply: \(error)") }
        reply(to: call.message.pointer, with: .error(mapped))
        dbus_message_unref(call.message.pointer)
    }

    /// How many replies are held now.
    public var heldReplyCount: Int { heldCalls.count }

    /// Drops every held reply (the connection closed).
    func dropHeldReplies() {
        let calls = heldCalls.values
        heldCalls.removeAll()
        for call in calls { dbus_message_unref(call.message.pointer) }
    }
}
