import DBusKit
import Logging
import NavigationCore
import NavigationSession
import Synchronization

/// Per-model observation (swift-navigation's `observe`). A client calls
/// `Window1.FollowModel(t model)` and receives, as a signal addressed to it alone (a unicast signal: the bus
/// delivers it to that connection and to no one else), `ModelChanged(t model, t version, s change_json)` for each
/// change that concerns the model; `UnfollowModel` ends it, and so do the model's end (a last `ModelChanged` with
/// `"finished":true`), the window's closing and the client leaving the bus.
///
/// Why unicast signals (Docs/performance.md, "Following one model"): with nobody following, a change pays one
/// emptiness check — no signal is built or sent; a broadcast signal per touched model filtered by a match rule
/// (`arg0='12'`) would be marshalled, written and routed by the bus daemon for every change, followed or not.
struct ModelFollowers: Sendable {
    /// At most this many models per client (one peer process: all its connections together), and this many
    /// follows in the session (`LimitsExceeded`).
    static let maxPerClient = 64
    static let maxTotal = 4096

    /// Per window, per model: the followers' unique names, in the order they followed.
    private(set) var byWindow: [WindowNumber: [ModelID: [String]]] = [:]
    /// Per client: the models it follows.
    private var byClient: [String: [(WindowNumber, ModelID)]] = [:]
    private(set) var total = 0
    /// Per share (a peer process), its follows; and each following client's share.
    private var perShare: [String: Int] = [:]
    private var shareOf: [String: String] = [:]

    var isEmpty: Bool { total == 0 }

    /// Adds a follow; following the same model again is a no-op.
    mutating func follow(
        _ model: ModelID, in window: WindowNumber, by client: String, share: String? = nil
    ) throws(SessionError) {
        if byWindow[window]?[model]?.contains(client) == true { return }
        let share = shareOf[client] ?? share ?? client
        let mine = perShare[share] ?? 0
        guard mine < Self.maxPerClient else {
            throw .limitsExceeded(
                "\(client) follows \(mine) models with its process; a client (one process) may follow at most \(Self.maxPerClient)")
        }
        guard total < Self.maxTotal else {
            throw .limitsExceeded("the session has \(total) model follows; at most \(Self.maxTotal)")
        }
        byWindow[window, default: [:]][model, default: []].append(client)
        byClient[client, default: []].append((window, model))
        shareOf[client] = share
        perShare[share, default: 0] += 1
        total += 1
    }

    /// Removes a follow; not following is a no-op.
    mutating func unfollow(_ model: ModelID, in window: WindowNumber, by client: String) {
        guard var clients = byWindow[window]?[model], let index = clients.firstIndex(of: client) else { return }
        clients.remove(at: index)
        byWindow[window]?[model] = clients.isEmpty ? nil : clients
        if byWindow[window]?.isEmpty == true { byWindow[window] = nil }
        byClient[client]?.removeAll { $0.0 == window && $0.1 == model }
        if let share = shareOf[client] {
            let left = (perShare[share] ?? 1) - 1
            perShare[share] = left > 0 ? left : nil
        }
        if byClient[client]?.isEmpty == true {
            byClient[client] = nil
            shareOf[client] = nil
        }
        total -= 1
    }

    /// The follows of `model` in `window` go to `newModel` in `newWindow` (it moved there), each in its follower's
    /// share as before (no limit is asked again: the count does not change).
    mutating func carry(_ model: ModelID, in window: WindowNumber, to newModel: ModelID, in newWindow: WindowNumber) {
        guard let clients = byWindow[window]?[model] else { return }
        byWindow[window]?[model] = nil
        if byWindow[window]?.isEmpty == true { byWindow[window] = nil }
        for client in clients {
            if let index = byClient[client]?.firstIndex(where: { $0.0 == window && $0.1 == model }) {
                byClient[client]?[index] = (newWindow, newModel)
            }
        }
        byWindow[newWindow, default: [:]][newModel, default: []].append(contentsOf: clients)
    }

    /// Every follow of `model` ends (it finished).
    mutating func drop(_ model: ModelID, in window: WindowNumber) {
        for client in byWindow[window]?[model] ?? [] { unfollow(model, in: window, by: client) }
    }

    /// Every follow in `window` ends (it closed).
    mutating func drop(window: WindowNumber) {
        for (model, clients) in byWindow[window] ?? [:] {
            for client in clients { unfollow(model, in: window, by: client) }
        }
    }

    /// Every follow of `client` ends (it left the bus). O(its follows).
    mutating func drop(client: String) {
        for (window, model) in byClient[client] ?? [] { unfollow(model, in: window, by: client) }
    }
}

/// One `ModelChanged` to send.
struct FollowedChange: Sendable {
    let window: WindowNumber
    let follower: String
    let model: ModelID
    let version: Int
    let json: String
}

extension ServiceState {
    /// The `ModelChanged` signals an outcome owes followers; `[]` at once when nobody follows (the cost of the
    /// feature for a session that does not use it). O(followed models of the changed windows × steps).
    mutating func followedChanges(_ outcome: SessionOutcome) -> [FollowedChange] {
        guard !followers.isEmpty else { return [] }
        var result: [FollowedChange] = []
        // Models that moved here from another window (`MoveModel`): their follows came along, and their followers
        // hear it at once from the new window (a tear-off's window opens with them: it has no change of its own).
        var arrived: [WindowNumber: Set<ModelID>] = [:]
        for event in outcome.events {
            switch event {
            case .moved(let record):
                guard let from = WindowNumber(exactly: record.from), let to = WindowNumber(exactly: record.to),
                    let graph = try? session.window(to).graph
                else { continue }
                for (old, new) in record.ids.sorted(by: { $0.key < $1.key }) {
                    guard let clients = followers.byWindow[from]?[old] else { continue }
                    followers.carry(old, in: from, to: new, in: to)
                    arrived[to, default: []].insert(new)
                    let change = ChangeEvent(unchangedAt: graph.version, cause: .moved(record), activeModel: graph.activeModelID)
                    let json = Self.changeJSON(
                        model: new, change: change, steps: [], finished: false, state: graph.model(new), moved: record)
                    for client in clients {
                        result.append(FollowedChange(window: to, follower: client, model: new, version: graph.version, json: json))
                    }
                }
            case .changed(let number, let change, _, _):
                guard let followed = followers.byWindow[number] else { continue }
                let graph = try? session.window(number).graph
                for (model, clients) in followed.sorted(by: { $0.key < $1.key }) {
                    let steps = change.steps.filter { $0.concerns(model) }
                    let finished = change.finished.contains(model)
                    // One that just arrived was told with the move.
                    guard !steps.isEmpty || finished, arrived[number]?.contains(model) != true else { continue }
                    let json = Self.changeJSON(
                        model: model, change: change, steps: steps, finished: finished,
                        state: finished ? nil : graph?.model(model))
                    for client in clients {
                        result.append(FollowedChange(
                            window: number, follower: client, model: model, version: change.version, json: json))
                    }
                    if finished { followers.drop(model, in: number) }
                }
            case .windowClosed(let number, _):
                followers.drop(window: number)
            default:
                break
            }
        }
        return result
    }

    /// `change_json`: `{"finished":false,"model":12,"params":{…},"steps":[…],"title":"…","transaction":{…},"version":7}`
    /// (`params`/`title` the model's after the change, absent once it finished; `transaction` when the change
    /// carries one; `moved` — `{"from":1,"model":7,"transaction":"move-1-14"}`, the window and id it had — when it
    /// arrived with a move, the signal then coming from its new window).
    static func changeJSON(
        model: ModelID, change: ChangeEvent, steps: [NavigationStep], finished: Bool, state: ModelState?,
        moved: MoveRecord? = nil
    ) -> String {
        var fields: [String] = [
            #""finished":\#(finished)"#, #""model":\#(model.rawValue)"#,
        ]
        if let moved, let old = moved.ids.first(where: { $0.value == model })?.key {
            fields.append(
                #""moved":{"from":\#(moved.from),"model":\#(old.rawValue),"transaction":"#
                    + JSONOutput.string(moved.transaction, fallback: "\"\"") + "}")
        }
        if let state {
            fields.append(#""params":"# + JSONOutput.string(state.params, fallback: "{}"))
        }
        fields.append(#""steps":"# + NavigationStep.json(steps))
        if let title = state?.title { fields.append(#""title":"# + JSONOutput.string(title, fallback: "\"\"")) }
        if case .commands(let batch) = change.cause, let payload = batch.transactionPayload {
            fields.append(#""transaction":"# + JSONOutput.string(payload, fallback: "{}"))
        }
        fields.append(#""version":\#(change.version)"#)
        return "{" + fields.joined(separator: ",") + "}"
    }
}

extension SessionService {
    /// `FollowModel(t model)`: the caller follows `model` (0 = the active model) of the call's window.
    func followModel(_ call: MethodCall, on bus: isolated Bus) throws {
        let number = try Self.number(of: call.path)
        guard let client = call.client else { throw BusError(.invalidArgs, "FollowModel needs a caller with a bus name") }
        let raw = call.arguments[0].uint64 ?? 0
        try withSession { state in
            let graph = try state.session.window(number).graph
            let model = raw == 0 ? graph.activeModelID : ModelID(rawValue: Int(clamping: raw))
            guard graph.model(model) != nil else { throw SessionError.navigation(.unknownModel(model)) }
            try state.followers.follow(model, in: number, by: client, share: state.session.share(of: client))
        }
    }

    /// `UnfollowModel(t model)`: the caller stops following `model`; not following it is a no-op.
    func unfollowModel(_ call: MethodCall, on bus: isolated Bus) throws {
        let number = try Self.number(of: call.path)
        guard let client = call.client else { return }
        let raw = call.arguments[0].uint64 ?? 0
        try withSession { state in
            let graph = try state.session.window(number).graph
            let model = raw == 0 ? graph.activeModelID : ModelID(rawValue: Int(clamping: raw))
            state.followers.unfollow(model, in: number, by: client)
        }
    }

    /// Sends each followed change to its follower alone. A follower that has not read 1 MiB of what it was sent
    /// (``Bus/isBehind(_:by:)``: measured from what the bus holds for it) loses its follows: what piles up for a
    /// client that does not read would otherwise count against the daemon's own queue at the bus and stall every
    /// client. Its next call is refused while it is behind; it follows again once it reads (Docs/reliability.md).
    func announceFollowed(_ changes: [FollowedChange], on bus: isolated Bus) {
        var dropped: Set<String> = []
        var index = changes.startIndex
        // The followers of one model get the same signal, consecutive in `changes`: encoded once for all of them.
        while index < changes.endIndex {
            let change = changes[index]
            var end = index
            var destinations: [BusName] = []
            while end < changes.endIndex, changes[end].window == change.window, changes[end].model == change.model,
                changes[end].version == change.version
            {
                let follower = changes[end].follower
                end += 1
                if dropped.contains(follower) { continue }
                // A follower is the unique name the bus gave the caller of `FollowModel`: not checked again.
                let name = BusName(trusted: follower)
                if bus.isBehind(name) {
                    dropped.insert(follower)
                    state.withLock { $0.followers.drop(client: follower) }
                    logger.notice(
                        "a follower does not read its ModelChanged signals; its follows ended",
                        metadata: ["client": "\(follower)"])
                    continue
                }
                destinations.append(name)
            }
            index = end
            guard !destinations.isEmpty else { continue }
            do {
                let arguments: [Value] = [
                    .uint64(UInt64(clamping: change.model.rawValue)), .uint64(UInt64(clamping: change.version)),
                    .string(change.json),
                ]
                try bus.emit(
                    path: try path(of: change.window), interface: names.windowInterface, member: names.modelChanged,
                    arguments: arguments, destinations: destinations)
                if let recorder = EmittedDocuments.shared { Self.recordSignal(names.modelChanged, arguments, recorder) }
            } catch {
                logger.warning("cannot send ModelChanged to \(destinations.map(\.rawValue)): \(error)")
            }
        }
    }
}
