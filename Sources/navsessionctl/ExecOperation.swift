/// One `navsessionctl exec` command: a kebab-case name mapped to a D-Bus method and its arguments.
struct ExecOperation: Sendable {
    /// Which object receives the call.
    enum Target: Sendable, Equatable {
        /// The window itself (`org.navsession.Window1`).
        case window
        /// The session, with the window path as its first argument (`org.navsession.Session1`).
        case session
    }

    /// What the reply holds and how it is printed.
    enum Output: Sendable, Equatable {
        /// The window's new version (`t`).
        case version
        /// A model id (`t`, ModelForTag).
        case model
        /// Nothing.
        case nothing
        /// One JSON string (GetState, GetRoutes).
        case json
        /// One text string (GetTree).
        case text
        /// A version and the ids of the models started (Window1 Apply, Check).
        case versionAndStarted
        /// A version and the ids of the models a change would finish (Window1 BeginBack).
        case versionAndFinished
        /// A version, a text and the model taking focus (Window1 GetAnnouncement).
        case announcement
    }

    /// The kebab-case name typed after WINDOW.
    let name: String
    /// The D-Bus method.
    let member: String
    /// The receiving interface.
    let target: Target
    /// The method's inputs after the window.
    let arguments: [ExecArgument]
    /// The reply.
    let output: Output
    /// One-line help.
    let summary: String

    /// `name ARG…` for help and error messages.
    var usage: String { ([name] + arguments.map(\.usage)).joined(separator: " ") }

    /// The operation named `name`, if any; the batch command's camelCase spelling (`goBack`) names its
    /// kebab-case operation (`go-back`) too.
    static func named(_ name: String) -> ExecOperation? {
        let kebab = name.unicodeScalars.reduce(into: "") { result, scalar in
            if scalar.properties.isUppercase, !result.isEmpty { result += "-" }
            result += String(scalar).lowercased()
        }
        return all.first { $0.name == name || $0.name == kebab }
    }
}
