/// One D-Bus interface, declared once: its methods, properties and signals with their handlers.
///
/// From this declaration DBusKit derives argument checks, dispatch, introspection XML,
/// `org.freedesktop.DBus.Properties` and the ObjectManager's view of the object.
///
/// ```swift
/// let counter = Mutex<UInt32>(0)   // any Sendable state the handlers share
/// let demo = try Interface("org.navsession.Demo1",
///     methods: [
///         Interface.Method("Echo", inputs: [.init("text", .string)], outputs: [.init("echoed", .string)]) { call in
///             [call.arguments[0]]          // arguments already match the declared signature
///         },
///     ],
///     properties: [
///         Interface.Property("Counter", .uint32, get: { _ in .uint32(counter.withLock { $0 }) }),
///     ],
///     signals: [Interface.Signal("CounterChanged", arguments: [.init("value", .uint32)])])
/// try await bus.export([demo], at: try ObjectPath("/org/navsession/Demo"))
/// ```
public struct Interface: Sendable {
    /// The interface name.
    public let name: InterfaceName
    /// Its methods.
    public let methods: [Method]
    /// Its properties.
    public let properties: [Property]
    /// Its signals.
    public let signals: [Signal]
    /// Annotations on the interface itself.
    public let annotations: [Annotation]

    /// Declares an interface.
    /// - Throws: ``ValidationError`` for an invalid name or a duplicated method, property or signal name.
    public init(
        _ name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = [],
        annotations: [Annotation] = []
    ) throws(ValidationError) {
        self.name = try InterfaceName(name)
        for (kind, names) in [
            ("method", methods.map(\.name)), ("property", properties.map(\.name)), ("signal", signals.map(\.name)),
        ] where Set(names).count != names.count {
            throw ValidationError(.memberName, "interface \(name) declares a \(kind) name twice")
        }
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.annotations = annotations
    }

    func method(named member: String) -> Method? {
        methods.first { $0.name.rawValue == member }
    }

    func property(named member: String) -> Property? {
        properties.first { $0.name.rawValue == member }
    }

    /// A named, typed argument of a method or signal. Names are `lower_snake` by convention.
    public struct Argument: Sendable, Hashable {
        /// The argument's name (shown in introspection; may be empty).
        public let name: String
        /// The argument's type.
        public let type: SignatureType

        /// Creates an argument.
        public init(_ name: String, _ type: SignatureType) {
            self.name = name
            self.type = type
        }
    }

    /// An introspection annotation such as `org.freedesktop.DBus.Deprecated = true`.
    public struct Annotation: Sendable, Hashable {
        /// The annotation name.
        public let name: String
        /// The annotation value.
        public let value: String

        /// Creates an annotation.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A method and its handler.
    public struct Method: Sendable {
        /// The method name.
        public let name: MemberName
        /// Input arguments, in order.
        public let inputs: [Argument]
        /// Output arguments, in order.
        public let outputs: [Argument]
        /// Annotations.
        public let annotations: [Annotation]
        /// What runs for a call: one of the three kinds of handler.
        let body: Body
        let inputSignature: String
        let outputSignature: String
        /// The outputs' types, kept once: every reply is checked against them.
        let outputTypes: [SignatureType]

        /// Declares a method.
        /// - Throws: ``ValidationError`` for an invalid name or argument lists over the signature limits.
        public init(
            _ name: String, inputs: [Argument] = [], outputs: [Argument] = [], annotations: [Annotation] = [],
            handler: @escaping MethodHandler
        ) throws(ValidationError) {
            try self.init(name, inputs, outputs, annotations, .handler(handler))
        }

        private init(
            _ name: String, _ inputs: [Argument], _ outputs: [Argument], _ annotations: [Annotation], _ body: Body
        ) throws(ValidationError) {
            self.name = try MemberName(name)
            self.inputs = inputs
            self.outputs = outputs
            self.annotations = annotations
            self.body = body
            self.inputSignature = try Signature(inputs.map(\.type)).rawValue
            self.outputSignature = try Signature(outputs.map(\.type)).rawValue
            self.outputTypes = outputs.map(\.type)
        }

        /// Declares a method whose handler runs synchronously on the bus thread, isolated to the bus: it can
        /// emit signals with the `isolated Bus` it is given and reply without a task or a suspension.
        ///
        /// When the call is the only one waiting, it runs straight from libdbus's dispatch, which saves the
        /// task and the executor hops an `async` handler costs (a few microseconds per call, most of the
        /// difference for small calls). Arrival order holds as for every method: a call that arrives while
        /// others wait is queued behind them. A handler that must await something (e.g. ``Bus/export(_:at:)``)
        /// returns ``SynchronousReply/completing(_:)``; later calls then wait until it finishes.
        /// - Throws: ``ValidationError`` for an invalid name or argument lists over the signature limits.
        public static func synchronous(
            _ name: String, inputs: [Argument] = [], outputs: [Argument] = [], annotations: [Annotation] = [],
            handler: @escaping SynchronousMethodHandler
        ) throws(ValidationError) -> Method {
            try Method(name, inputs, outputs, annotations, .synchronous(handler))
        }

        /// Declares a method whose reply is expensive to build from a cheap capture, e.g. encoding a large
        /// read: `capture` runs in call order on the bus thread (it sees exactly the state left by the calls
        /// before it) and returns `finish`, which runs on a thread of its own while the bus thread goes on
        /// with later calls; the reply is sent when `finish` returns. Replies may then leave in another order
        /// than calls arrived — D-Bus matches them by serial.
        ///
        /// At most ``Bus/maximumDeferredReplies`` are finished at once; beyond that `finish` runs inline,
        /// so captures held in memory stay bounded however fast a client asks.
        /// - Throws: ``ValidationError`` for an invalid name or argument lists over the signature limits.
        public static func completingOffBusThread(
            _ name: String, inputs: [Argument] = [], outputs: [Argument] = [], annotations: [Annotation] = [],
            capture: @escaping DeferredMethodHandler
        ) throws(ValidationError) -> Method {
            try Method(name, inputs, outputs, annotations, .deferred(capture))
        }

        /// The kinds of handler a method can have (see the initializers).
        enum Body: Sendable {
            /// Awaited by the drain task, in call order.
            case handler(MethodHandler)
            /// Captures on the bus thread; the reply is finished off it.
            case deferred(DeferredMethodHandler)
            /// Runs on the bus thread without suspending; straight from libdbus's dispatch when nothing is queued.
            case synchronous(SynchronousMethodHandler)
        }
    }

    /// A signal's declaration (for introspection; emit with ``Bus/emit(path:interface:member:arguments:destination:)``).
    public struct Signal: Sendable {
        /// The signal name.
        public let name: MemberName
        /// Its arguments.
        public let arguments: [Argument]
        /// Annotations.
        public let annotations: [Annotation]

        /// Declares a signal.
        /// - Throws: ``ValidationError`` for an invalid name.
        public init(_ name: String, arguments: [Argument] = [], annotations: [Annotation] = []) throws(ValidationError) {
            self.name = try MemberName(name)
            self.arguments = arguments
            self.annotations = annotations
        }
    }
}
