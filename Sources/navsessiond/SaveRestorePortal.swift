import DBusKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging
import NavigationSession

/// The desktop's `org.freedesktop.portal.SaveRestore` (v1) as the daemon speaks it
/// (Docs/persistence.md, "The SaveRestore portal").
///
/// Used only when `org.freedesktop.portal.Desktop` already has an owner on the bus (the daemon does not start a
/// portal by activation) and answers `Register`; otherwise (Debian 12's xdg-desktop-portal predates the
/// interface) everything works as before.
struct SaveRestorePortal {
    static let busNameText = "org.freedesktop.portal.Desktop"
    static let interfaceName = "org.freedesktop.portal.SaveRestore"

    /// What `Register` returned.
    struct Registration {
        var sessionHandle: ObjectPath
        var instanceID: String?
        var reason: RestoreReason?
        var discardInstanceIDs: [String]
    }

    /// Registers with the portal, or nil when there is none (logged at info level), or it refused (warning).
    static func register(on bus: Bus, logger: Logger) async -> Registration? {
        guard let driverPath = try? ObjectPath("/org/freedesktop/DBus"), let hasOwner = try? MemberName("NameHasOwner"),
              let owned = try? await bus.call(
                  destination: .bus, path: driverPath, interface: .bus, member: hasOwner,
                  arguments: [.string(busNameText)], timeout: .seconds(5)).first?.bool
        else { return nil }
        guard owned else {
            logger.debug("no desktop portal on the bus; not registering with org.freedesktop.portal.SaveRestore")
            return nil
        }
        do {
            let options = Value.dictionary(key: .string, value: .variant, [
                DictionaryEntry(.string("session_handle_token"), .variant(.string("navsession\(getpid())")))
            ])
            let reply = try await bus.call(
                destination: try BusName(busNameText), path: try ObjectPath("/org/freedesktop/portal/desktop"),
                interface: try InterfaceName(interfaceName), member: try MemberName("Register"), arguments: [options],
                timeout: .seconds(5))
            guard reply.count == 2, let handle = reply[0].objectPath, let entries = reply[1].dictionaryEntries else {
                logger.warning("the SaveRestore portal's Register reply is not (o, a{sv}); not using it")
                return nil
            }
            var registration = Registration(sessionHandle: handle, instanceID: nil, reason: nil, discardInstanceIDs: [])
            for entry in entries {
                let value = entry.value.variantValue
                switch entry.key.string {
                case "instance-id":
                    if let id = value?.string {
                        if let problem = InstanceID.problem(with: id) {
                            logger.warning("ignoring the portal's instance id", metadata: ["problem": "\(problem)"])
                        } else {
                            registration.instanceID = id
                        }
                    }
                case "restore-reason":
                    registration.reason = value?.uint32.flatMap(RestoreReason.init(portalCode:))
                case "discard-instance-ids":
                    registration.discardInstanceIDs = (value?.arrayElements ?? []).compactMap(\.string)
                        .filter { InstanceID.problem(with: $0) == nil }
                default:
                    continue
                }
            }
            logger.info(
                "registered with org.freedesktop.portal.SaveRestore", metadata: [
                    "session": "\(handle.rawValue)", "instance": "\(registration.instanceID ?? "")",
                    "restoreReason": "\(registration.reason?.rawValue ?? "")",
                    "discard": "\(registration.discardInstanceIDs.joined(separator: ","))",
                ])
            return registration
        } catch {
            logger.info("the desktop portal does not offer org.freedesktop.portal.SaveRestore; not using it", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Calls `method(session_handle [, extra])` on the portal; errors are logged, not thrown.
    static func call(_ method: String, _ handle: ObjectPath, _ extra: [Value] = [], on bus: Bus, logger: Logger) async {
        do {
            _ = try await bus.call(
                destination: try BusName(busNameText), path: try ObjectPath("/org/freedesktop/portal/desktop"),
                interface: try InterfaceName(interfaceName), member: try MemberName(method),
                arguments: [.objectPath(handle)] + extra, timeout: .seconds(3))
        } catch {
            logger.warning("the SaveRestore portal did not take \(method)", metadata: ["error": "\(error)"])
        }
    }

    /// Closes the portal session (`org.freedesktop.portal.Session.Close`): a clean stop, as the portal counts it.
    static func close(_ handle: ObjectPath, on bus: Bus, logger: Logger) async {
        do {
            _ = try await bus.call(
                destination: try BusName(busNameText), path: handle, interface: try InterfaceName("org.freedesktop.portal.Session"),
                member: try MemberName("Close"), timeout: .seconds(2))
        } catch {
            logger.debug("the SaveRestore portal session did not close", metadata: ["error": "\(error)"])
        }
    }

    /// The portal's `SaveHint` or `Quit` signals (the caller keeps those naming our session handle).
    static func signals(_ member: String, _ handle: ObjectPath, on bus: Bus) async throws -> AsyncStream<Signal> {
        try await bus.signals(matching: MatchRule(
            interface: try InterfaceName(interfaceName), member: try MemberName(member)))
    }
}
