internal import CDBus
internal import CDBusShims

/// A private connection to a message bus, driven by its own thread.
///
/// `Bus` is an actor whose executor is the connection's dedicated thread, so all libdbus work happens there
/// and nothing blocks Swift's cooperative pool. The connection does not exit the process when the bus goes
/// away: ``disconnected()`` returns, pending calls fail with ``ConnectionError/Code/disconnected``, and
/// signal and name-event streams finish.
///
/// ```swift
/// let bus = try await Bus.connect(.session)
/// print(await bus.uniqueName)   // ":1.42"
/// await bus.close()
/// ```
///
/// Incoming method calls are processed one at a time, in arrival order (see ``export(_:at:)``).
public actor Bus {
    nonisolated let thread: BusThread
    var connection: OpaquePointer?
    var isDisconnected = false
    var disconnectWaiters: [CheckedContinuation<Void, Never>] = []

    /// This connection's unique name (e.g. `:1.42`), set once connected.
    public private(set) var uniqueName: BusName?

    /// Reports `NameAcquired`/`NameLost` for this connection; finishes when the connection closes.
    ///
    /// Single consumer. Includes the `NameAcquired` for the unique name sent right after connecting.
    public nonisolated let nameEvents: AsyncStream<NameEvent>
    nonisolated let nameEventsContinuation: AsyncStream<NameEvent>.Continuation

    // Client calls in flight, by call id.
    var pendingCalls: [UInt64: PendingCall] = [:]
    var nextID: UInt64 = 1
    // Signal subscriptions, by id.
    var subscriptions: [UInt64: Subscription] = [:]

    // Object server state.
    var objects: [ObjectPath: ExportedObject] = [:]
    var incoming: [OpaquePointer] = []
    var incomingHead = 0
    var isDraining = false
    /// Reply bytes each peer has not shown it read (bounded per peer and in all).
    var replyLedger = ReplyLedger()
    /// What the bus holds of our messages for recipients that have not read them (``isBacklogged``).
    var backlog = Backlog()
    /// Set by ``holdIncomingCalls()``: method calls queue in ``incoming`` until ``releaseIncomingCalls()``.
    var isHoldingCalls = false
    /// Calls queued at most (behind an awaiting handler, or held); further ones are answered `LimitsExceeded`.
    public static let maximumQueuedCalls = 4096
    /// The serial of the next message marshalled by DBusKit itself (``WireMessage``).
    var wireSerial = WireMessage.firstSerial
    /// Messages DBusKit marshalled whole, waiting to be written to the socket in one system call at the end of
    /// the bus thread's turn (``flushOutgoing()``); empty whenever libdbus may write, so the two never reorder.
    var outgoing: [UInt8] = []
    /// Whether the connection has a socket DBusKit can write its own messages to (every unix and tcp
    /// transport); without one, they go through libdbus.
    var writesDirectly = false
    /// Deferred replies being built off the bus thread (bounded by ``maximumDeferredReplies``).
    var deferredReplies = 0
    /// Replies taken over by handlers (``holdReply(to:outputs:)``), by id.
    var heldCalls: [UInt64: HeldCall] = [:]
    var nextHeldID: UInt64 = 1
    /// Deferred replies built at once at most; further ones are built inline, in order.
    public static let maximumDeferredReplies = 4
    var limits = IncomingLimits()
    /// Descriptors decoded from the call being handled; closed after its reply.
    let receivedDescriptors = DescriptorLog()
    /// Told of handler errors that became `Failed` (``setFaultHandler(_:)``).
    var faultHandler: (@Sendable (String) -> Void)?
    /// Outgoing messages above this many bytes are never sent: a reply becomes
    /// `LimitsExceeded`, a signal throws. A bus drops a connection that sends a message over its own
    /// `max_message_size`, and dbus-daemon's compiled-in default is 32 MiB. Messages DBusKit marshals itself
    /// are measured exactly once built; those carrying file descriptors (marshalled by libdbus) by an upper
    /// estimate before.
    public internal(set) var maximumOutgoingMessageSize = 32 * 1024 * 1024 - 64 * 1024

    /// The connection's dedicated thread; every isolated method runs there.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    private init() throws(ConnectionError) {
        thread = try BusThread()
        (nameEvents, nameEventsContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// A private connection to `address`, registered with the bus (`Hello`), that does not exit the process when
    /// the bus goes away. Blocking.
    static func openConnection(_ address: BusAddress) throws -> OpaquePointer {
        let opened: OpaquePointer?
        switch address {
        case .session:
            opened = try LibDBus.withBusError(.connectFailed) { dbus_bus_get_private(DBUS_BUS_SESSION, $0) }
        case .system:
            opened = try LibDBus.withBusError(.connectFailed) { dbus_bus_get_private(DBUS_BUS_SYSTEM, $0) }
        case .address(let text):
            if text.containsNUL { throw ValidationError(.address, "\(quoted(text)) contains a NUL byte") }
            let candidate = try LibDBus.withBusError(.connectFailed) { error in
                text.withCString { dbus_connection_open_private($0, error) }
            }
            if let candidate {
                do {
                    _ = try LibDBus.withBusError(.connectFailed) { dbus_bus_register(candidate, $0) }
                } catch {
                    dbus_connection_close(candidate)
                    dbus_connection_unref(candidate)
                    throw error
                }
            }
            opened = candidate
        }
        guard let opened else { throw ConnectionError(.connectFailed, "libdbus returned no connection") }
        // Connections from dbus_bus_get* call _exit() when the bus goes away; we report it instead.
        dbus_connection_set_exit_on_disconnect(opened, 0)
        return opened
    }

    /// Connects to a bus and registers with it (`Hello`).
    ///
    /// Blocking: authentication and `Hello` block only this connection's own thread.
    /// - Parameter address: ``BusAddress/session``, ``BusAddress/system`` or an explicit address.
    /// - Returns: a connected bus with its ``uniqueName`` set.
    /// - Throws: ``ConnectionError`` (`connectFailed`) when the bus is unreachable; ``ValidationError`` for an
    ///   address containing NUL.
    public static func connect(_ address: BusAddress) async throws -> Bus {
        let bus = try Bus()
        try await bus.open(address)
        return bus
    }

    private func open(_ address: BusAddress) throws {
        let opened = try Self.openConnection(address)
        connection = opened
        uniqueName = LibDBus.string(dbus_bus_get_unique_name(opened)).map(BusName.init(trusted:))

        let context = Unmanaged.passUnretained(self).toOpaque()
        guard CDBusShims_loop_attach(thread.loop, opened) != 0,
              dbus_connection_add_filter(opened, busFilter, context, nil) != 0
        else {
            teardown()
            throw ConnectionError(.outOfMemory, "cannot install the event loop")
        }
        // No object path is registered with libdbus: the filter takes every method call (``filter(_:)``) and the
        // object server answers UnknownObject for paths nobody exported.
        var socket: Int32 = -1
        writesDirectly = dbus_connection_get_socket(opened, &socket) != 0 && socket >= 0
        thread.pump = { [weak self] in
            self?.onBusThread { bus in bus.dispatchAll() }
        }
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { connection != nil && !isDisconnected }

    /// Suspends until the connection is closed or lost; returns at once if it already is.
    ///
    /// Not resumed by task cancellation: a task group that races this against something else should call
    /// ``close()`` to end it (as `navsessiond` does).
    public func disconnected() async {
        if !isConnected { return }
        await withCheckedContinuation { disconnectWaiters.append($0) }
    }

    /// Closes the connection: pending calls fail with `disconnected`, streams finish, objects are dropped.
    ///
    /// Idempotent. Exported objects' handlers are released, which breaks any cycle through captured `Bus`es.
    public func close() {
        teardown()
    }

    isolated deinit {
        teardown()
        nameEventsContinuation.finish()
        thread.stop()
    }

    /// Dispatches until libdbus has nothing left; runs on the bus thread after every loop turn.
    func dispatchAll() {
        guard let connection else { return }
        // Written before each message is dispatched: libdbus answers some (Peer.Ping) itself, and those answers
        // must follow what this connection sent before.
        repeat {
            flushOutgoing()
        } while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS
        flushOutgoing()
        if isDisconnected { teardown() }
    }

    /// Releases everything tied to the connection. Safe to call more than once.
    func teardown() {
        if !isDisconnected { flushOutgoing() }
        outgoing = []
        if let connection {
            self.connection = nil
            failPendingCalls()
            dropHeldReplies()
            dbus_connection_remove_filter(connection, busFilter, Unmanaged.passUnretained(self).toOpaque())
            CDBusShims_loop_detach(thread.loop, connection)
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
        isDisconnected = true
        for message in incoming[incomingHead...] { dbus_message_unref(message) }
        incoming.removeAll()
        incomingHead = 0
        objects.removeAll()
        finishSubscriptions()
        nameEventsContinuation.finish()
        let waiters = disconnectWaiters
        disconnectWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Handles every message: method calls, replies, name events, signals, local Disconnected. Method calls are
    /// taken here, not through an object path registered with libdbus, whose object tree splits the path of every
    /// message it routes into freshly allocated components first (six allocations per call).
    func filter(_ message: OpaquePointer) -> DBusHandlerResult {
        let type = dbus_message_get_type(message)
        if type == LibDBus.messageTypeMethodCall { return receiveMethodCall(message) }
        guard type == LibDBus.messageTypeSignal else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let interface = dbus_message_get_interface(message)
        if LibDBus.equals(interface, "org.freedesktop.DBus.Local") {
            if LibDBus.equals(dbus_message_get_member(message), "Disconnected") {
                isDisconnected = true
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if LibDBus.equals(interface, "org.freedesktop.DBus"),
           LibDBus.equals(dbus_message_get_sender(message), "org.freedesktop.DBus") {
            let member = dbus_message_get_member(message)
            let acquired = LibDBus.equals(member, "NameAcquired")
            if acquired || LibDBus.equals(member, "NameLost"),
               let name = (try? MessageDecoder().decodeBody(of: message))?.first?.string {
                let busName = BusName(trusted: name)
                nameEventsContinuation.yield(acquired ? .acquired(busName) : .lost(busName))
            }
        }
        deliverSignal(message)
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

/// libdbus filter callback; `data` is the unretained `Bus`, which outlives the filter (removed in teardown).
private let busFilter: DBusHandleMessageFunction = { _, message, data in
    handleOnBusThread(message, data) { bus, message in bus.filter(message) }
}

/// What the libdbus callback does: hands `message` to `handle` of the unretained `Bus` in `data`, isolated to it
/// (``Bus/onBusThread(_:_:)``); a callback without a message or a bus leaves the message to libdbus.
private func handleOnBusThread(
    _ message: OpaquePointer?, _ data: UnsafeMutableRawPointer?,
    _ handle: @escaping @Sendable (isolated Bus, OpaquePointer) -> DBusHandlerResult
) -> DBusHandlerResult {
    guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let bus = Unmanaged<Bus>.fromOpaque(data).takeUnretainedValue()
    // The message is an argument, not a capture: a closure capturing it was a context allocated on every message.
    return bus.onBusThread(message, handle)
}

extension Bus {
    /// Runs `body` isolated to this bus, from a libdbus callback or the thread's pump, which only ever run on
    /// the bus thread.
    ///
    /// `assumeIsolated` would do the same, but asks the concurrency runtime whether this is the bus's executor
    /// (an executor comparison and dynamic casts), ten times per incoming call; comparing thread ids is what
    /// that check amounts to here (``BusThread/isCurrent``) and touches no runtime code.
    nonisolated func onBusThread<T>(_ body: (isolated Bus) -> T) -> T {
        checkOnBusThread()
        return withoutActuallyEscaping(body) { body in
            // What `assumeIsolated` does once its check has passed: the isolation is a static property of the
            // closure type, and the check above is what makes it true.
            unsafeBitCast(body, to: ((Bus) -> T).self)(self)
        }
    }

    /// ``onBusThread(_:)`` for a `body` that captures nothing and takes what it needs as `argument`: no closure
    /// context is made per call (a capturing closure made escaping for the cast was one, on every message).
    nonisolated func onBusThread<Argument, T>(
        _ argument: Argument, _ body: @escaping (isolated Bus, Argument) -> T
    ) -> T {
        checkOnBusThread()
        return unsafeBitCast(body, to: ((Bus, Argument) -> T).self)(self, argument)
    }

    /// What makes the casts of ``onBusThread(_:)`` sound. Only fails if DBusKit itself calls a libdbus function
    /// that dispatches from another thread: a DBusKit bug, not input.
    private nonisolated func checkOnBusThread() {
        precondition(thread.isCurrent, "DBusKit: a libdbus callback ran off the bus thread")
    }

    /// A serial for a message marshalled by DBusKit (libdbus numbers the ones it marshals from 1).
    func nextWireSerial() -> UInt32 {
        let serial = wireSerial
        wireSerial = wireSerial == .max ? WireMessage.firstSerial : wireSerial + 1
        return serial
    }

    /// Sends a message DBusKit marshalled whole (``WireMessage``): appended to ``outgoing`` and written with the
    /// rest of the turn's messages in one system call, without libdbus's outgoing queue or its second reading
    /// of the bytes. The writer builds only what the specification allows (types checked as values are made,
    /// nesting and lengths as they are written); debug builds — the tests — still hand every message to libdbus
    /// to check, exactly as it checks one read from a peer.
    /// - Throws: ``ConnectionError`` when disconnected; ``ValidationError`` when libdbus refuses it (debug).
    func sendWire(_ wire: WireMessage) throws {
        guard connection != nil, !isDisconnected else {
            throw ConnectionError(.disconnected, "the connection is closed")
        }
        guard writesDirectly else {
            let message = try wire.demarshal()
            defer { dbus_message_unref(message) }
            try send(message)
            return
        }
        #if DEBUG
        dbus_message_unref(try wire.demarshal())
        #endif
        outgoing.append(contentsOf: wire.bytes)
        if outgoing.count >= Self.outgoingFlushBytes { flushOutgoing() }
    }

    /// Writes ``outgoing`` to the socket (after anything libdbus queued first). Called before libdbus may write
    /// (a send through libdbus, a dispatch, the loop's wait) and when ``outgoing`` reaches
    /// ``outgoingFlushBytes``. A socket that fails drops what was waiting: the connection is gone, and libdbus
    /// reports it on its next read.
    func flushOutgoing() {
        guard !outgoing.isEmpty else { return }
        if let connection, !isDisconnected {
            _ = outgoing.withUnsafeBytes { CDBusShims_write_direct(connection, $0.baseAddress, $0.count) }
        }
        if outgoing.capacity > 4 * Self.outgoingFlushBytes {
            outgoing = []
        } else {
            outgoing.removeAll(keepingCapacity: true)
        }
    }

    /// How much of DBusKit's own messages waits for the end of a turn at most.
    static let outgoingFlushBytes = 64 * 1024
}
