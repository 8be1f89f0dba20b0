import DBusKit
import NavSessionInterface

/// A question the daemon asks a guard provider (`org.navsession.GuardProvider1.Decide`, Docs/guards.md).
public struct GuardRequest: Sendable, Hashable {
    /// The guard asked.
    public let guardName: String
    /// The window the change is to (`/org/navsession/Session1/window/<n>`).
    public let window: String
    /// The window's version before the change.
    public let version: UInt64
    /// The change's cause (as `Changed`'s `cause_json`).
    public let causeJSON: String
    /// The covered models the change starts: `[{"model":12,"screen":"profile"}]`.
    public let enteredJSON: String
    /// The covered models it finishes or suspends.
    public let leftJSON: String
}

/// A guard provider's answer.
public enum GuardVerdict: Sendable, Hashable {
    /// The change is applied.
    case allow
    /// The change is refused; the caller gets `org.navsession.Error.Denied` with this reason.
    case deny(reason: String)
    /// This batch (Window1 `Apply`'s JSON form) is applied to the window instead, as one change.
    case redirect(batchJSON: String)
}

extension NavSessionClient {
    /// Provides guards: exports `org.navsession.GuardProvider1` at `/org/navsession/GuardProvider1` on this
    /// client's connection, answering with `decide`, then registers for each of `names` (`RegisterGuard`). The
    /// registrations end when the connection closes. `decide` must answer within the guard's `timeoutMs`.
    ///
    /// ```swift
    /// try await client.provideGuards(["account"]) { request in
    ///     request.enteredJSON.contains("\"profile\"") && !loggedIn ? .deny(reason: "log in first") : .allow
    /// }
    /// ```
    /// - Throws: ``NavSessionError/unknownGuard(_:)``, ``NavSessionError/guardTaken(_:)``; a
    ///   ``NavSessionError`` when the object cannot be exported (already exported on this connection).
    public func provideGuards(
        _ names: [String], decide: @escaping @Sendable (GuardRequest) async -> GuardVerdict
    ) async throws(NavSessionError) {
        typealias A = Interface.Argument
        typealias P = NavSessionInterface.GuardProvider1
        do {
            let method = try Interface.Method(
                P.decide,
                inputs: [
                    A("guard", .string), A("window", .objectPath), A("version", .uint64), A("cause_json", .string),
                    A("entered_json", .string), A("left_json", .string),
                ],
                outputs: [A("verdict", .string), A("reason", .string), A("redirect_json", .string)]
            ) { call in
                let request = GuardRequest(
                    guardName: call.arguments[0].string ?? "", window: call.arguments[1].objectPath?.rawValue ?? "",
                    version: call.arguments[2].uint64 ?? 0, causeJSON: call.arguments[3].string ?? "",
                    enteredJSON: call.arguments[4].string ?? "", leftJSON: call.arguments[5].string ?? "")
                switch await decide(request) {
                case .allow: return [.string("allow"), .string(""), .string("")]
                case .deny(let reason): return [.string("deny"), .string(reason), .string("")]
                case .redirect(let batch): return [.string("redirect"), .string(""), .string(batch)]
                }
            }
            try await bus.export([try Interface(P.name, methods: [method])], at: try ObjectPath(P.path))
        } catch {
            throw NavSessionError(error)
        }
        for name in names { try await session.registerGuard(name) }
    }
}
