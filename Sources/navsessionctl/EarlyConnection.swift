import DBusKit
import Glibc
import NavSessionClient
import Synchronization

/// A session-bus connection opened while ArgumentParser is still reading the command line.
///
/// Parsing costs a one-shot process about as long as connecting does (most of it the Swift runtime's first
/// look-ups of the conformances ArgumentParser's reflection asks for), and the two need each other for
/// nothing, so on a machine with a spare core they can overlap: `main` starts the connection, the command
/// takes it through ``ConnectingCommand/connect()``. It is only started when the outcome is predictable from
/// the words alone (``isWorthStarting(_:environment:)``): a subcommand that talks to the daemon, the default
/// bus, no help or version request, and a session bus address in the environment (so libdbus never tries
/// to autolaunch a bus for a connection nobody may use). A connection that fails or is not taken is simply
/// dropped; the command then connects as it always did and reports its own error.
enum EarlyConnection {
    private static let pending = Mutex<Task<Bus?, Never>?>(nil)

    /// Subcommands that never connect.
    static let offline: Set<String> = ["plan", "help"]

    /// Starts connecting to the session bus when ``isWorthStarting(_:environment:)`` says so.
    static func start(for arguments: [String]) {
        let address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        guard isWorthStarting(arguments, environment: address) else { return }
        let task = Task.detached { try? await Bus.connect(.session) }
        pending.withLock { $0 = task }
    }

    /// Whether `arguments` (rewritten by ``GlobalArguments/rewrite(_:)``) will connect to the session bus:
    /// the first word is a subcommand other than ``offline``'s, and no word before a `--` selects another
    /// bus or asks for help or the version. `environment` is `DBUS_SESSION_BUS_ADDRESS`.
    static func isWorthStarting(_ arguments: [String], environment: String?) -> Bool {
        guard let address = environment, !address.isEmpty,
              let subcommand = arguments.first, !subcommand.hasPrefix("-"), !offline.contains(subcommand)
        else { return false }
        for word in arguments.dropFirst() {
            if word == "--" { break }
            if word == "--bus" || word.hasPrefix("--bus=") || word == "-h" || word.hasPrefix("--help")
                || word == "--version"
            {
                return false
            }
        }
        return true
    }

    /// The early connection when one was started and came up, for a command that wants `selection`; nil
    /// otherwise (the caller connects as usual). Taken once: a second caller gets nil.
    static func take(for selection: NavSessionClient.BusSelection) async -> Bus? {
        let task = pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
        guard let task, let bus = await task.value else { return nil }
        guard selection == .session else {
            await bus.close()
            return nil
        }
        return bus
    }
}
