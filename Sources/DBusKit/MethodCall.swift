/// An incoming method call, as seen by a method handler.
public struct MethodCall: Sendable {
    /// The bus the call arrived on, for emitting signals or making calls from the handler.
    public let bus: Bus
    /// The caller's unique name (`:1.42`); `nil` only on peer-to-peer connections.
    public let sender: BusName?
    /// The object the call addresses; lets one ``Interface`` serve many objects (e.g. one per window).
    public let path: ObjectPath
    /// The interface, when the caller sent one.
    public let interface: InterfaceName?
    /// The method name.
    public let member: MemberName
    /// The arguments, already checked against the method's declared input signature.
    public let arguments: [Value]
    /// The call's message, valid while its handler runs (``Bus/holdReply(to:outputs:)`` keeps it longer).
    let message: UncheckedMessage?
}

/// Runs a method: receives the checked arguments and returns the outputs in declared order.
///
/// Handlers run on the bus's actor, one at a time in arrival order: the next call is dispatched only after
/// this handler returns (or throws). Throwing maps the error through ``BusError/init(mapping:)``.
public typealias MethodHandler = nonisolated(nonsending) @Sendable (MethodCall) async throws -> [Value]

/// The first half of a method whose reply is finished off the bus thread (``Interface/Method/completingOffBusThread(_:inputs:outputs:annotations:capture:)``):
/// it runs in call order on the bus thread and returns the second half, which builds the reply's values
/// on another thread while later calls are handled.
public typealias DeferredMethodHandler = @Sendable (MethodCall) throws -> @Sendable () throws -> [Value]

/// Runs a method synchronously on the bus thread (``Interface/Method/synchronous(_:inputs:outputs:annotations:handler:)``):
/// receives the checked arguments and the bus it may emit on, and returns the outputs or the rest of the work.
public typealias SynchronousMethodHandler = @Sendable (MethodCall, isolated Bus) throws -> SynchronousReply

/// What a synchronous method handler returns.
public enum SynchronousReply: Sendable {
    /// The outputs, in declared order; the reply is sent at once.
    case values([Value])
    /// Work that must await (an export, a call to another service) before the reply: it runs in call order,
    /// the next call waits for it, and the values it returns are the reply.
    case completing(Completion)
    /// The handler took the reply over with ``Bus/holdReply(to:outputs:)`` and sends it later with
    /// ``Bus/sendHeldReply(_:values:)`` or ``Bus/sendHeldReply(_:error:)``; later calls are handled meanwhile.
    case held

    /// The awaited rest of a synchronous method. `nonisolated(nonsending)`: it starts on the bus thread, like
    /// the handler, instead of waiting for a thread of the global pool.
    public typealias Completion = nonisolated(nonsending) @Sendable () async throws -> [Value]
}

/// Context for property getters and setters.
public struct PropertyAccess: Sendable {
    /// The bus.
    public let bus: Bus
    /// The object whose property is read or written.
    public let path: ObjectPath
    /// The caller's unique name; `nil` for reads DBusKit makes itself (GetManagedObjects, signals).
    public let sender: BusName?
}

/// Reads a property's current value; it must have the property's declared type.
///
/// Synchronous, on the bus thread: a property is state the service already holds, and reading it must not
/// suspend, so that `Get`, `GetAll`, `GetManagedObjects`, an export's `InterfacesAdded` and a
/// `PropertiesChanged` are built in one pass with the call or change that asks for them.
public typealias PropertyGetter = @Sendable (PropertyAccess) throws -> Value

/// Stores a property's new value (already checked against the declared type); synchronous, on the bus thread,
/// like ``PropertyGetter``.
public typealias PropertySetter = @Sendable (Value, PropertyAccess) throws -> Void
