extension Bus {
    /// Exports `interfaces` at `path`; calls to it are dispatched from now on.
    ///
    /// Incoming calls (to any object) are processed serially in arrival order: a client that pipelines
    /// `A` then `B` sees `A`'s handler finish before `B`'s starts. Handlers may await; meanwhile replies,
    /// signals and client calls keep flowing on the bus thread, but the next incoming call waits.
    /// If an ancestor is an ObjectManager, `InterfacesAdded` is emitted after the object is reachable.
    ///
    /// ```swift
    /// try await bus.export([windowInterface], at: try root.appending("window").appending("7"))   // from outside the bus
    /// ```
    /// - Throws: ``ConnectionError`` `.pathInUse` if something is already exported there;
    ///   ``ValidationError`` if two interfaces share a name.
    public func export(_ interfaces: [Interface], at path: ObjectPath) throws {
        let names = interfaces.map(\.name)
        guard Set(names).count == names.count else {
            throw ValidationError(.interfaceName, "the same interface is exported twice at \(path)")
        }
        if let existing = objects[path] {
            guard existing.interfaces.isEmpty else {
                throw ConnectionError(.pathInUse, "an object is already exported at \(path)")
            }
            objects[path]?.interfaces = interfaces
        } else {
            objects[path] = ExportedObject(interfaces: interfaces, isManager: false)
        }
        guard let manager = manager(above: path), !interfaces.isEmpty else { return }
        let added = try interfacesAndProperties(of: interfaces, at: path)
        try emit(
            path: manager, interface: .objectManager, member: MemberName(trusted: "InterfacesAdded"),
            arguments: [.objectPath(path), added])
    }

    /// Removes the object at `path`; later calls to it get `UnknownObject`.
    ///
    /// Emits `InterfacesRemoved` from the managing ObjectManager, if any, before the object goes. Does
    /// nothing when nothing is exported there. An ObjectManager at `path` stays.
    /// - Throws: ``ConnectionError`` when the signal cannot be sent (the object is removed regardless).
    public func unexport(at path: ObjectPath) throws {
        guard let object = objects[path] else { return }
        if object.isManager {
            objects[path]?.interfaces = []
        } else {
            objects[path] = nil
        }
        guard let manager = manager(above: path), !object.interfaces.isEmpty, isConnected else { return }
        try emit(
            path: manager, interface: .objectManager, member: MemberName(trusted: "InterfacesRemoved"),
            arguments: [.objectPath(path), .strings(object.interfaces.map(\.name.rawValue))])
    }

    /// Implements `org.freedesktop.DBus.ObjectManager` at `path` for every object exported below it.
    ///
    /// ```swift
    /// try bus.addObjectManager(at: try ObjectPath("/org/navsession/Session1"))
    /// ```
    public func addObjectManager(at path: ObjectPath) {
        objects[path, default: ExportedObject(interfaces: [], isManager: true)].isManager = true
    }

    /// Paths currently exported (with at least one interface), sorted.
    public var exportedPaths: [ObjectPath] {
        objects.filter { !$0.value.interfaces.isEmpty }.keys.sorted()
    }

    /// Holds incoming method calls until ``releaseIncomingCalls()``: they queue in arrival order (at most
    /// ``maximumQueuedCalls``; later ones are answered `LimitsExceeded`) while replies to our own calls and
    /// signals keep flowing.
    ///
    /// For a service that must own its name before it can load what it serves: a `--replace` handover takes
    /// the name first, so no call reaches the old owner after it has saved, then waits for the old owner to
    /// finish writing before it loads and exports.
    public func holdIncomingCalls() {
        isHoldingCalls = true
    }

    /// Handles the calls held since ``holdIncomingCalls()``, in arrival order, and every later call as usual.
    public func releaseIncomingCalls() {
        isHoldingCalls = false
        drainHeldCalls()
    }

    /// Sets limits checked on every incoming call before its handler runs.
    public func setIncomingLimits(_ limits: IncomingLimits) {
        self.limits = limits
    }

    /// Sets the largest message this connection will send (see ``maximumOutgoingMessageSize``).
    ///
    /// Set it at or below the bus's `max_message_size`; a bus that receives a larger message
    /// disconnects the sender.
    public func setMaximumOutgoingMessageSize(_ bytes: Int) {
        maximumOutgoingMessageSize = bytes
    }

    /// Sets a handler told of every call answered with `org.freedesktop.DBus.Error.Failed` because a
    /// handler threw an error that is neither a ``BusError`` nor ``BusErrorConvertible`` (an internal
    /// fault), with the member and the error's description — so each one is logged with its cause.
    public func setFaultHandler(_ handler: @escaping @Sendable (String) -> Void) {
        faultHandler = handler
    }

    /// Emits `PropertiesChanged` for `names`, honouring each property's `EmitsChangedSignal` policy.
    ///
    /// `.true` properties are sent with their current value (read through the getter), `.invalidates` ones
    /// are listed as invalidated, `.const`/`.false` ones are skipped. Nothing is sent when nothing remains.
    /// - Throws: ``BusError`` `UnknownObject`/`UnknownInterface`/`UnknownProperty` for names not exported;
    ///   errors from getters; ``ConnectionError`` when disconnected.
    public func propertiesChanged(_ names: [MemberName], interface: InterfaceName, at path: ObjectPath) throws {
        guard let object = objects[path] else { throw BusError(.unknownObject, "no object at \(path)") }
        guard let declared = object.interface(named: interface.rawValue) else {
            throw BusError(.unknownInterface, "\(path) does not implement \(interface)")
        }
        // Read the values of the properties whose policy sends them; the rest is decided below.
        var changed: [(name: MemberName, value: Value)] = []
        var others: [MemberName] = []
        for name in names {
            guard let property = declared.property(named: name.rawValue) else {
                throw BusError(.unknownProperty, "\(interface) has no property \(name)")
            }
            guard property.emitsChangedSignal == .true else {
                others.append(name)
                continue
            }
            // A write-only property has no value to send.
            guard let getter = property.getter else { continue }
            changed.append((name, try getter(PropertyAccess(bus: self, path: path, sender: nil))))
        }
        try propertiesChanged(changed, invalidated: others, interface: interface, at: path)
    }

    /// Emits `PropertiesChanged` with values the caller already holds, without calling any getter.
    ///
    /// For services that compute their properties as part of a change: the values are sent as given,
    /// so one signal costs one message and no property read. Each property's policy still applies:
    /// `.invalidates` properties go to the invalidated list (their value, if given, is not sent),
    /// `.const`/`.false` ones are skipped. Nothing is sent when nothing remains.
    /// - Parameters:
    ///   - changed: properties and their new values, in the order they are to appear.
    ///   - invalidated: properties whose value changed but is not sent (clients `Get` it when they need it).
    /// - Throws: ``BusError`` `UnknownObject`/`UnknownInterface`/`UnknownProperty` for names not exported,
    ///   `Failed` for a value whose type is not the property's; ``ConnectionError`` when disconnected.
    public func propertiesChanged(
        _ changed: [(name: MemberName, value: Value)], invalidated: [MemberName] = [], interface: InterfaceName,
        at path: ObjectPath
    ) throws {
        guard let object = objects[path] else { throw BusError(.unknownObject, "no object at \(path)") }
        guard let declared = object.interfaces.first(where: { $0.name == interface })?.properties else {
            throw BusError(.unknownInterface, "\(path) does not implement \(interface)")
        }
        var values: [(name: MemberName, value: Value)] = []
        values.reserveCapacity(changed.count)
        var names: [MemberName] = []
        // Indices, not copies: a property carries its getter and setter closures (retains on every copy),
        // and this runs for every change of every window. Callers list the properties in about the order they
        // are declared, so each is looked for after the one found before it first (a window's ten changed
        // properties were ≈ 120 name comparisons, now ≈ 30), then from the start.
        var cursor = 0
        func policy(of name: MemberName) throws(BusError) -> Int {
            guard let index = declared[cursor...].firstIndex(where: { $0.name == name })
                ?? declared[..<cursor].firstIndex(where: { $0.name == name })
            else {
                throw BusError(.unknownProperty, "\(interface) has no property \(name)")
            }
            cursor = index + 1
            return index
        }
        for (name, value) in changed {
            let index = try policy(of: name)
            switch declared[index].emitsChangedSignal {
            case .true:
                guard value.hasType(declared[index].type) else { throw Self.wrongGetterType(declared[index], value) }
                values.append((name, value))
            case .invalidates: names.append(name)
            case .const, .false: continue
            }
        }
        for name in invalidated {
            switch declared[try policy(of: name)].emitsChangedSignal {
            case .true, .invalidates: names.append(name)
            case .const, .false: continue
            }
        }
        guard !values.isEmpty || !names.isEmpty else { return }
        let member = MemberName(trusted: "PropertiesChanged")
        // Written straight from the names and values (no entry or variant box built), unless a value holds a file
        // descriptor, which only libdbus can attach.
        if let body = try WireMessage.Body(propertiesOf: interface.rawValue, changed: values, invalidated: names) {
            return try sendSignal(body, path: path, interface: .properties, member: member)
        }
        try emit(
            path: path, interface: .properties, member: member,
            arguments: [
                .string(interface.rawValue),
                .dictionary(key: .string, value: .variant, values.map { DictionaryEntry(.string($0.name.rawValue), .variant($0.value)) }),
                .array(.string, names.map { .string($0.rawValue) }),
            ])
    }

    static func wrongGetterType(_ property: Interface.Property, _ value: Value) -> BusError {
        BusError(.failed, "getter of \(property.name) returned '\(value.type)', declared '\(property.type)'")
    }

    /// The nearest ObjectManager strictly above `path`.
    func manager(above path: ObjectPath) -> ObjectPath? {
        var best: ObjectPath?
        for (candidate, object) in objects where object.isManager && candidate != path && path.isDescendant(of: candidate) {
            if best.map({ candidate.rawValue.count > $0.rawValue.count }) ?? true { best = candidate }
        }
        return best
    }

    /// `a{sa{sv}}` for the given interfaces, reading every readable property.
    func interfacesAndProperties(of interfaces: [Interface], at path: ObjectPath) throws -> Value {
        var entries: [DictionaryEntry] = []
        for interface in interfaces {
            entries.append(DictionaryEntry(.string(interface.name.rawValue), try allProperties(of: interface, at: path, sender: nil)))
        }
        return .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), entries)
    }

    /// `a{sv}` of every readable property of one interface.
    func allProperties(of interface: Interface, at path: ObjectPath, sender: BusName?) throws -> Value {
        var entries: [DictionaryEntry] = []
        let access = PropertyAccess(bus: self, path: path, sender: sender)
        for property in interface.properties {
            guard let getter = property.getter else { continue }
            let value = try getter(access)
            guard value.hasType(property.type) else { throw Self.wrongGetterType(property, value) }
            entries.append(DictionaryEntry(.string(property.name.rawValue), .variant(value)))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }
}
