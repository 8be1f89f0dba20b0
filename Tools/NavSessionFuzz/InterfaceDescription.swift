import DBusKit

/// One interface of an introspected object: its methods (with argument names and types) and properties.
struct InterfaceDescription: Sendable {
    struct Argument: Sendable {
        var name: String
        var type: SignatureType
    }

    struct Method: Sendable {
        var name: String
        var inputs: [Argument]
        var outputs: [Argument]

        var inputTypes: [SignatureType] { inputs.map(\.type) }
        var outputTypes: [SignatureType] { outputs.map(\.type) }
    }

    struct Property: Sendable {
        var name: String
        var type: SignatureType
        /// `read`, `write` or `readwrite`.
        var access: String

        var isWritable: Bool { access.contains("write") }
    }

    var name: String
    var methods: [Method] = []
    var properties: [Property] = []
}
