import ArgumentParser
import DBusKit
import Glibc
import NavSessionClient

/// The ordinary run of a command that makes one call (`exec`, `routes`, `state`): on the main thread, blocking
/// (DBusKit's ``OneShotCall``), before any other thread exists. A one-call process spent more of its CPU starting the
/// bus thread and the task pool, and on their page faults, than on its call (Docs/performance.md, "navsessionctl").
///
/// A call that was never delivered — no bus, or no daemon owning the name — is left to the ordinary path, which
/// makes it again and reports what it finds as it always has (with the names present on the bus); so is anything
/// a command does besides one call (`--hold`, `--set`, `--at`). Any other failure is reported here exactly as the
/// ordinary path reports it: the same one line (``CommandFailure``), exit status 1.
extension ConnectingCommand {
    /// The bus as DBusKit names it.
    var busAddress: BusAddress {
        switch bus {
        case "session": .session
        case "system": .system
        default: .address(bus)
        }
    }

    /// `member`'s reply, or nil when the call was not delivered (the ordinary path then makes it).
    func oneShot(_ path: ObjectPath, _ interface: String, _ member: String, _ arguments: [Value] = []) -> [Value]? {
        let destination: BusName
        let interfaceName: InterfaceName
        let memberName: MemberName
        do {
            destination = try BusName(dest)
            interfaceName = try InterfaceName(interface)
            memberName = try MemberName(member)
        } catch {
            return nil
        }
        do {
            return try OneShotCall.call(
                on: busAddress, destination: destination, path: path, interface: interfaceName, member: memberName,
                arguments: arguments, timeout: .milliseconds(Int64(timeout * 1000)))
        } catch let error as ConnectionError where error.code == .connectFailed {
            return nil
        } catch let error as BusError where error.name == .serviceUnknown || error.name == .nameHasNoOwner {
            return nil
        } catch {
            failOneShot(error)
        }
    }

    /// Reports `error` as the ordinary path would and exits with status 1.
    func failOneShot(_ error: any Error) -> Never {
        CommandFailure.printLine(CommandFailure.message(for: NavSessionError(error), destination: dest, timeout: timeout))
        Glibc.exit(ExitCode.failure.rawValue)
    }

    /// A window's JSON (`GetRoutes`, `GetState`) printed indented, or on one line when `compact`; false when the
    /// call was not delivered.
    func printOneShotJSON(window: WindowArgument, member: String, compact: Bool) -> Bool {
        guard let reply = oneShot(window.path, SessionNames.window, member) else { return false }
        guard let text = reply.first?.string else {
            failOneShot(NavSessionError.unexpectedReply(member: member, signature: reply.map(\.type.description).joined()))
        }
        StandardOutput.line(compact ? text : JSONText.pretty(text))
        return true
    }
}
