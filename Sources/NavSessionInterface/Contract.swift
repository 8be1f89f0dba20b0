extension NavSessionInterface {
    /// One interface of the contract as its introspection file (`dbus/*.xml`) declares it: the only place a member,
    /// its arguments and its errors are written. `scripts/generate-interface` writes the tables
    /// (`Contract.generated.swift`, and the Python package's `contract.py`) that the service binds its handlers to
    /// and the clients call through.
    public struct Contract: Sendable {
        /// A named argument with its D-Bus signature (`s`, `a{ss}`, `t`, …).
        public struct Argument: Sendable, Hashable {
            /// The argument's name in the XML (`batch_json`).
            public let name: String
            /// Its D-Bus type signature.
            public let signature: String

            /// An argument called `name` of type `signature`.
            public init(_ name: String, _ signature: String) {
                self.name = name
                self.signature = signature
            }
        }

        /// A method: its arguments and the errors its documentation lists besides the interface's common ones.
        public struct Method: Sendable, Hashable {
            /// The member name (`StackAppend`).
            public let name: String
            /// The in arguments, in order.
            public let inputs: [Argument]
            /// The out arguments, in order.
            public let outputs: [Argument]
            /// The error names of its "Errors:" paragraph.
            public let errors: [String]
        }

        /// A signal and its arguments.
        public struct Signal: Sendable, Hashable {
            /// The member name (`Changed`).
            public let name: String
            /// Its arguments, in order.
            public let arguments: [Argument]
        }

        /// A property, its type and whether it is writable.
        public struct Property: Sendable, Hashable {
            /// The property name (`Version`).
            public let name: String
            /// Its D-Bus type signature.
            public let signature: String
            /// Whether clients may set it.
            public let writable: Bool
        }

        /// The interface name (`org.navsession.Window1`).
        public let name: String
        /// Its methods, in the XML's order.
        public let methods: [Method]
        /// Its signals, in the XML's order.
        public let signals: [Signal]
        /// Its properties, in the XML's order.
        public let properties: [Property]
        /// The errors every method of the interface may answer (the interface's overview lists them).
        public let commonErrors: [String]

        /// The method called `name`, if the interface declares one. O(methods).
        public func method(_ name: String) -> Method? { methods.first { $0.name == name } }

        /// The signal called `name`, if the interface declares one.
        public func signal(_ name: String) -> Signal? { signals.first { $0.name == name } }
    }
}
