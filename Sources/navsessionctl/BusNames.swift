import DBusKit
import NavSessionClient

/// The well-known names on a bus, for the error when the daemon's name is absent.
enum BusNames {
    /// At most this many names are listed.
    static let limit = 10

    /// `well-known names on this bus: a, b` (NavSession-looking names first, at most ``limit``), or
    /// `no well-known names on this bus`; never fails (a failed ListNames gives a hint instead).
    static func present(on bus: NavSessionClient.BusSelection, timeout: Double) async -> String {
        guard let names = try? await listNames(on: bus, timeout: timeout) else {
            return "is navsessiond running?"
        }
        let candidates = wellKnown(names)
        if candidates.isEmpty { return "no well-known names on this bus (is navsessiond running?)" }
        let shown = candidates.prefix(limit).joined(separator: ", ")
        let more = candidates.count > limit ? " (and \(candidates.count - limit) more)" : ""
        return "well-known names on this bus: \(shown)\(more); pick one with --dest or NAVSESSION_DEST"
    }

    /// Well-known names (not `:1.x`, not the bus itself), those containing "navsession" first, then sorted.
    static func wellKnown(_ names: [String]) -> [String] {
        let known = names.filter { !$0.hasPrefix(":") && $0 != "org.freedesktop.DBus" }.sorted()
        let navsession = known.filter { $0.lowercased().contains("navsession") }
        return navsession + known.filter { !$0.lowercased().contains("navsession") }
    }

    /// org.freedesktop.DBus.ListNames.
    static func listNames(on bus: NavSessionClient.BusSelection, timeout: Double) async throws -> [String] {
        let client = try await NavSessionClient.connect(
            to: bus, applicationID: "org.freedesktop.DBus", timeout: .milliseconds(Int64(min(timeout, 5) * 1000)))
        let reply: [Value]
        do {
            reply = try await client.call(
                path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames")
            await client.close()
        } catch {
            await client.close()
            throw error
        }
        return reply.first?.arrayElements?.compactMap(\.string) ?? []
    }
}
