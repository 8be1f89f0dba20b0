extension Interface {
    /// A property, its access and change policy, and its accessors.
    public struct Property: Sendable {
        /// Who may read or write the property.
        public enum Access: String, Sendable, Hashable {
            /// Get only; Set replies `PropertyReadOnly`.
            case read
            /// Set only; Get replies `AccessDenied`.
            case write
            /// Get and Set.
            case readwrite
        }

        /// The `org.freedesktop.DBus.Property.EmitsChangedSignal` policy.
        public enum EmitsChangedSignal: String, Sendable, Hashable {
            /// `PropertiesChanged` carries the new value.
            case `true`
            /// `PropertiesChanged` lists the property as invalidated, without a value.
            case invalidates
            /// The value never changes; no signal.
            case const
            /// Changes are not signalled.
            case `false`
        }

        /// The property name.
        public let name: MemberName
        /// Its type.
        public let type: SignatureType
        /// Read, write or both.
        public let access: Access
        /// Its change-signal policy.
        public let emitsChangedSignal: EmitsChangedSignal
        /// Extra annotations (the change policy is added automatically).
        public let annotations: [Annotation]
        let getter: PropertyGetter?
        let setter: PropertySetter?

        /// Declares a property. `access` follows from which accessors are given.
        ///
        /// A setter that returns normally makes DBusKit emit `PropertiesChanged` (per the policy) before it
        /// replies to `Set`. For changes made elsewhere, call ``Bus/propertiesChanged(_:interface:at:)``.
        /// - Throws: ``ValidationError`` for an invalid name, or when neither accessor is given.
        public init(
            _ name: String, _ type: SignatureType, emitsChangedSignal: EmitsChangedSignal = .true,
            annotations: [Annotation] = [], get: PropertyGetter? = nil, set: PropertySetter? = nil
        ) throws(ValidationError) {
            self.name = try MemberName(name)
            self.type = type
            self.emitsChangedSignal = emitsChangedSignal
            self.annotations = annotations
            self.getter = get
            self.setter = set
            switch (get, set) {
            case (.some, .some): access = .readwrite
            case (.some, .none): access = .read
            case (.none, .some): access = .write
            case (.none, .none):
                throw ValidationError(.memberName, "property \(name) has neither a getter nor a setter")
            }
        }
    }
}
