import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore
import ProcessSupport

/// `navsessionctl exec WINDOW COMMAND ARGS…`: calls one Window1 method (or Session1.Apply) by kebab-case name.
struct ExecCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run one navigation command on a window and print its new version.",
        discussion: """
            Options may go before or after WINDOW or among the command's words; a '--' ends all options, so \
            a word may start with '-'. The commands are listed at the end.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Flag(help: "Print the D-Bus call instead of making it.")
    var dryRun = false

    @Flag(help: ArgumentHelp(
        "After the call, stay connected until SIGINT or SIGTERM (Ctrl-C, kill): what the call made this client own — "
            + "a protection mark, a followed model, a scheduled batch — lasts while it runs (it goes when a client "
            + "leaves the bus)."))
    var hold = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    @Argument(help: "The command (see COMMANDS).", completion: LiveCompletion.execCommands)
    var command: String

    @Argument(parsing: .captureForPassthrough, help: "The command's arguments.", completion: LiveCompletion.execWords)
    var words: [String] = []

    func validate() throws {
        try validateConnection()
        _ = try invocation()
    }

    func run() async throws {
        let call = try invocation()
        if dryRun {
            StandardOutput.line(call.callDescription)
            return
        }
        try await reportingFailures {
            try await withClient { client in
                let reply = try await client.call(
                    path: call.path.rawValue, interface: call.interface, member: call.operation.member,
                    arguments: call.arguments)
                try print(reply, of: call.operation)
                if hold {
                    let interrupts = TerminationSignals.install()
                    StandardError.write("navsessionctl: holding the connection; SIGINT or SIGTERM lets go\n")
                    for await _ in interrupts { break }
                }
            }
        }
    }

    func runOnThisThread() -> Bool {
        guard !hold, let call = try? invocation() else { return false }
        if dryRun {
            StandardOutput.line(call.callDescription)
            return true
        }
        guard let reply = oneShot(call.path, call.interface, call.operation.member, call.arguments) else { return false }
        do {
            try print(reply, of: call.operation)
        } catch {
            failOneShot(error)
        }
        return true
    }

    /// The call, or a usage error (exit status 64).
    private func invocation() throws -> ExecInvocation {
        do {
            return try ExecInvocation(window: window.path, command: command, words: words)
        } catch {
            throw ArgumentParser.ValidationError(error.description)
        }
    }

    /// A reply that does not have the types the operation promises.
    private static func unexpected(_ member: String, _ reply: [Value]) -> NavSessionError {
        .unexpectedReply(member: member, signature: reply.map(\.type.description).joined())
    }

    /// Prints a reply the way the operation's output says.
    private func print(_ reply: [Value], of operation: ExecOperation) throws {
        switch operation.output {
        case .nothing:
            return
        case .version:
            guard let version = reply.first?.uint64 else { throw Self.unexpected(operation.member, reply) }
            StandardOutput.line(json ? "{\"version\":\(version)}" : String(version))
        case .model:
            guard let model = reply.first?.uint64 else { throw Self.unexpected(operation.member, reply) }
            StandardOutput.line(json ? "{\"model\":\(model)}" : String(model))
        case .json:
            guard let text = reply.first?.string else { throw Self.unexpected(operation.member, reply) }
            StandardOutput.line(json ? text : JSONText.pretty(text))
        case .text:
            guard let text = reply.first?.string else { throw Self.unexpected(operation.member, reply) }
            StandardOutput.line(json ? JSONString.literal(text) : text)
        case .versionAndStarted, .versionAndFinished:
            guard let version = reply.first?.uint64, reply.count == 2, let ids = reply[1].arrayElements?.compactMap(\.uint64)
            else { throw Self.unexpected(operation.member, reply) }
            let list = ids.map(String.init).joined(separator: ",")
            let key = operation.output == .versionAndStarted ? "started" : "finished"
            StandardOutput.line(json ? "{\"version\":\(version),\"\(key)\":[\(list)]}" : "\(version) \(key)=\(list)")
        case .announcement:
            guard reply.count == 3, let version = reply[0].uint64, let text = reply[1].string, let focus = reply[2].uint64
            else { throw Self.unexpected(operation.member, reply) }
            StandardOutput.line(
                json ? "{\"focusModel\":\(focus),\"text\":\(JSONString.literal(text)),\"version\":\(version)}"
                    : "\(version) focus=\(focus) \(JSONString.literal(text))")
        }
    }
}

extension ExecCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .flag("dry-run") { $0.dryRun = $1 },
        .flag("hold") { $0.hold = $1 }, .positional { $0.window = $1 }, .positional { $0.command = $1 },
        .passthrough { $0.words = $1 })
}
