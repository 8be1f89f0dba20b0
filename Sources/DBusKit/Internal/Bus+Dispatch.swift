internal import CDBus

/// The object server's dispatch: an ordered queue of incoming calls, drained by one task at a time.
extension Bus {
    /// Called by libdbus (via the "/" fallback) on the bus thread for every message to our objects.
    func receiveMethodCall(_ message: OpaquePointer) -> DBusHandlerResult {
        guard dbus_message_get_type(message) == LibDBus.messageTypeMethodCall, !isDisconnected else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        // Nothing queued: a synchronous method runs right here, without a task (arrival order is kept
        // because nothing is waiting before it).
        if !isDraining, let (method, handler, context) = synchronousMethod(for: message) {
            handleSynchronously(method, handler, context)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        incoming.append(dbus_message_ref(message))
        if !isDraining {
            isDraining = true
            Task { await self.drainIncoming() }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// The synchronous method `message` calls, if it calls one of an exported object's own interfaces.
    private func synchronousMethod(
        for message: OpaquePointer
    ) -> (Interface.Method, SynchronousMethodHandler, CallContext)? {
        let path = ObjectPath(trusted: LibDBus.path(message) ?? "/")
        guard let object = objects[path] else { return nil }
        let member = LibDBus.member(message) ?? ""
        let interface = LibDBus.interface(message)
        let method: Interface.Method?
        if let interface {
            method = object.interface(named: interface)?.method(named: member)
        } else {
            method = object.method(named: member)
        }
        guard let method, case .synchronous(let handler) = method.body else { return nil }
        return (method, handler, CallContext(
            message: message, path: path, member: member, interface: interface, signature: LibDBus.signature(message),
            object: object))
    }

    /// Runs a synchronous method straight from libdbus's dispatch and replies; queues the rest of its work
    /// (``SynchronousReply/completing(_:)``) ahead of any later call.
    private func handleSynchronously(
        _ method: Interface.Method, _ handler: SynchronousMethodHandler, _ context: CallContext
    ) {
        do {
            switch try handler(try checkedCall(method, context), self) {
            case .values(let values):
                reply(to: context.message, with: .values(values, method.outputTypes))
            case .completing(let work):
                isDraining = true
                let held = UncheckedMessage(pointer: dbus_message_ref(context.message))
                let types = method.outputTypes
                Task {
                    await self.complete(held, work, types, context)
                    await self.drainIncoming()
                }
                return
            }
        } catch {
            reply(to: context.message, with: failure(error, context))
        }
        receivedDescriptors.closeAll()
    }

    /// Finishes a synchronous method's awaited part and sends its reply (then the queue drains).
    private func complete(
        _ held: UncheckedMessage, _ work: SynchronousReply.Completion, _ types: [SignatureType],
        _ context: CallContext
    ) async {
        let outcome: CallOutcome
        do {
            outcome = .values(try await work(), types)
        } catch {
            outcome = failure(error, context)
        }
        reply(to: held.pointer, with: outcome)
        receivedDescriptors.closeAll()
        dbus_message_unref(held.pointer)
    }

    /// The error reply for a handler's error; an internal fault (`Failed`) is also told to the fault handler.
    private func failure(_ error: any Error, _ context: CallContext) -> CallOutcome {
        let mapped = BusError(mapping: error)
        if mapped.name == .failed {
            faultHandler?("\(context.interface ?? "?").\(context.member) at \(context.path): \(error)")
        }
        return .error(mapped)
    }

    /// Handles queued calls strictly one after another, so handlers see calls in arrival order.
    private func drainIncoming() async {
        while incomingHead < incoming.count {
            let message = incoming[incomingHead]
            incomingHead += 1
            let outcome = await handle(message)
            if case .deferred(let finish, let types) = outcome {
                finishDeferred(message, finish, types)
            } else {
                reply(to: message, with: outcome)
            }
            // Handlers that need a descriptor past their call must dup it (``MethodCall/arguments``).
            receivedDescriptors.closeAll()
            dbus_message_unref(message)
            if incomingHead == incoming.count {
                incoming.removeAll(keepingCapacity: true)
                incomingHead = 0
            }
        }
        isDraining = false
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
        guard deferredReplies < Self.maximumDeferredReplies else {
            reply(to: message, with: outcome())
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
            return
        }
        deferredReplies += 1
    }

    private func completeDeferred(_ held: UncheckedMessage, _ outcome: CallOutcome) {
        deferredReplies -= 1
        reply(to: held.pointer, with: outcome)
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
                if let wire = try WireMessage.build(
                    .methodReturn, serial: nextWireSerial(), path: nil, interface: nil, member: nil,
                    replySerial: dbus_message_get_serial(call), destination: LibDBus.sender(call), body: values, types: types)
                {
                    guard wire.size <= maximumOutgoingMessageSize else {
                        failure = outgoingTooLarge("the reply would be", wire.size, "replies")
                        break
                    }
                    let message = try wire.demarshal()
                    defer { dbus_message_unref(message) }
                    try send(message)
                    return
                }
                let size = MessageEncoder.estimatedSize(of: values)
                guard size <= maximumOutgoingMessageSize else {
                    failure = outgoingTooLarge("the reply would be about", size, "replies")
                    break
                }
                // Descriptors need libdbus's own marshalling (it attaches them to the message).
                guard let reply = dbus_message_new_method_return(call) else { return }
                defer { dbus_message_unref(reply) }
                try MessageEncoder.append(values, as: types, to: reply)
                try send(reply)
                return
            } catch {
                // A handler returned values that do not match its declaration: a bug, reported as Failed.
                failure = BusError(.failed, "reply does not match the declared outputs: \(error)")
            }
        case .error(let error):
            failure = error
        case .deferred:
            failure = BusError(.failed, "a deferred reply reached the reply path unfinished")
        }
        guard let failure else { return }
        let created = failure.name.rawValue.withCString { name in
            failure.message.replacingNUL().withCString { text in dbus_message_new_error(call, name, text) }
        }
        guard let errorReply = created else { return }
        defer { dbus_message_unref(errorReply) }
        try? send(errorReply)
    }

    private func handle(_ message: OpaquePointer) async -> CallOutcome {
        let path = ObjectPath(trusted: LibDBus.path(message) ?? "/")
        let member = LibDBus.member(message) ?? ""
        let interface = LibDBus.interface(message)
        let signature = LibDBus.signature(message)

        guard let object = objects[path] else {
            if hasChildren(path), interface == nil || interface == InterfaceName.introspectable.rawValue,
               member == "Introspect" {
                return .values([.string(introspectionXML(for: path, object: nil))], [.string])
            }
            return .error(BusError(.unknownObject, "no object at \(path)"))
        }
        let context = CallContext(
            message: message, path: path, member: member, interface: interface, signature: signature, object: object)
        do {
            if let interface {
                if let declared = object.interface(named: interface) {
                    guard let method = declared.method(named: member) else {
                        return .error(BusError(.unknownMethod, "\(interface) has no method \(member)"))
                    }
                    return try await invoke(method, context)
                }
                if let outcome = try await handleStandard(interface: interface, context) { return outcome }
                return .error(BusError(.unknownInterface, "\(path) does not implement \(interface)"))
            }
            // No interface field: dispatch by member name, user interfaces first.
            if let method = object.method(named: member) { return try await invoke(method, context) }
            for standard in [InterfaceName.introspectable, .properties, .objectManager] {
                if let outcome = try await handleStandard(interface: standard.rawValue, context) { return outcome }
            }
            return .error(BusError(.unknownMethod, "\(path) has no method \(member)"))
        } catch {
            return failure(error, context)
        }
    }

    struct CallContext {
        let message: OpaquePointer
        let path: ObjectPath
        let member: String
        let interface: String?
        let signature: String
        let object: ExportedObject

        var sender: BusName? { LibDBus.sender(message).map(BusName.init(trusted:)) }

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
            arguments: try decodeArguments(context))
    }

    private func invoke(_ method: Interface.Method, _ context: CallContext) async throws -> CallOutcome {
        switch method.body {
        case .synchronous(let handler):
            switch try handler(try checkedCall(method, context), self) {
            case .values(let values): return .values(values, method.outputTypes)
            case .completing(let work): return .values(try await work(), method.outputTypes)
            }
        case .deferred(let capture):
            return .deferred(try await capture(try checkedCall(method, context)), method.outputTypes)
        case .handler(let handler):
            return .values(try await handler(try checkedCall(method, context)), method.outputTypes)
        }
    }

    /// Introspectable, Properties and ObjectManager; `nil` when `interface`/member is not one of them.
    private func handleStandard(interface: String, _ context: CallContext) async throws -> CallOutcome? {
        switch (interface, context.member) {
        case (InterfaceName.introspectable.rawValue, "Introspect"):
            try context.check("")
            return .values([.string(introspectionXML(for: context.path, object: context.object))], [.string])
        case (InterfaceName.properties.rawValue, "Get"):
            try context.check("ss")
            let arguments = try decodeArguments(context)
            let property = try findProperty(arguments, context)
            guard let getter = property.getter else {
                throw BusError(.accessDenied, "property \(property.name) is write-only")
            }
            let value = try await getter(PropertyAccess(bus: self, path: context.path, sender: context.sender))
            guard value.type == property.type else { throw Self.wrongGetterType(property, value) }
            return .values([.variant(value)], [.variant])
        case (InterfaceName.properties.rawValue, "GetAll"):
            try context.check("s")
            let name = try decodeArguments(context).first?.string ?? ""
            guard let declared = context.object.interface(named: name) else {
                throw BusError(.unknownInterface, "\(context.path) does not implement \(name)")
            }
            let all = try await allProperties(of: declared, at: context.path, sender: context.sender)
            return .values([all], [.dictionary(key: .string, value: .variant)])
        case (InterfaceName.properties.rawValue, "Set"):
            try context.check("ssv")
            let arguments = try decodeArguments(context)
            let property = try findProperty(arguments, context)
            guard let setter = property.setter else {
                throw BusError(.propertyReadOnly, "property \(property.name) is read-only")
            }
            guard arguments.count == 3, let value = arguments[2].variantValue, value.type == property.type else {
                let received = arguments.count == 3 ? (arguments[2].variantValue?.type.description ?? "?") : "?"
                throw BusError(
                    .invalidArgs,
                    "property \(property.name) expects signature '\(property.type)' but received '\(received)'")
            }
            try await setter(value, PropertyAccess(bus: self, path: context.path, sender: context.sender))
            if let interfaceName = arguments.first?.string {
                try await propertiesChanged(
                    [property.name], interface: InterfaceName(trusted: interfaceName), at: context.path)
            }
            return .values([], [])
        case (InterfaceName.objectManager.rawValue, "GetManagedObjects") where context.object.isManager:
            try context.check("")
            var entries: [DictionaryEntry] = []
            for (path, object) in objects.sorted(by: { $0.key < $1.key })
            where path != context.path && path.isDescendant(of: context.path) && !object.interfaces.isEmpty {
                entries.append(DictionaryEntry(
                    .objectPath(path), try await interfacesAndProperties(of: object.interfaces, at: path)))
            }
            let type = SignatureType.dictionary(
                key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)))
            guard case .dictionary(let key, let value) = type else { return nil }
            return .values([.dictionary(key: key, value: value, entries)], [type])
        default:
            return nil
        }
    }

    private func findProperty(_ arguments: [Value], _ context: CallContext) throws(BusError) -> Interface.Property {
        let interfaceName = arguments.first?.string ?? ""
        let propertyName = arguments.count > 1 ? (arguments[1].string ?? "") : ""
        guard let declared = context.object.interface(named: interfaceName) else {
            throw BusError(.unknownInterface, "\(context.path) does not implement \(interfaceName)")
        }
        guard let property = declared.property(named: propertyName) else {
            throw BusError(.unknownProperty, "\(interfaceName) has no property \(propertyName)")
        }
        return property
    }

    func hasChildren(_ path: ObjectPath) -> Bool {
        objects.keys.contains { $0 != path && $0.isDescendant(of: path) }
    }
}

/// A received message held across threads until its deferred reply is sent.
///
/// `@unchecked Sendable`: libdbus messages are reference counted with atomic operations and this one is
/// only read (to build a reply) after the detached task hands it back to the bus thread; nothing mutates it.
struct UncheckedMessage: @unchecked Sendable {
    let pointer: OpaquePointer
}
