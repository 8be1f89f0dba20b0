import DBusKit
import NavSessionInterface
import NavigationCore

/// One change of a followed model (`Window1.ModelChanged`, ``NavSessionClient/follow(_:in:)``).
public struct ModelChange: Sendable, Hashable {
    /// The followed model.
    public var model: ModelID
    /// The window's version after the change.
    public var version: UInt64
    /// The change as the daemon's JSON: `{"finished":…,"model":…,"params":{…},"steps":[…],"title":…,
    /// "transaction":{…},"version":…}` (Docs/dbus-api.md, "Following one model").
    public var changeJSON: String

    private var object: [String: JSONValue] {
        guard case .object(let object)? = try? JSONCoding.decode(JSONValue.self, from: changeJSON) else { return [:] }
        return object
    }

    /// Whether the model's life ended with this change (the last element: the sequence finishes after it).
    public var finished: Bool { object["finished"] == .bool(true) }

    /// The model's params after the change (empty once it finished).
    public var params: [String: String] {
        guard case .object(let params)? = object["params"] else { return [:] }
        return params.compactMapValues { if case .string(let text) = $0 { text } else { nil } }
    }

    /// The change's transaction payload (`Apply`'s `transaction` option), `nil` when it carries none.
    public var transaction: JSONValue? { object["transaction"] }
}

/// The changes of one model, and only of it (``NavSessionClient/follow(_:in:)``): the daemon sends them to this
/// connection alone. Finishes after the model's end, or when the daemon or the connection goes; cancelling the
/// consuming task unfollows. One consumer per sequence.
public struct ModelChanges: AsyncSequence, Sendable {
    public typealias Element = ModelChange
    public typealias Failure = Never

    let stream: AsyncStream<ModelChange>
    let lifetime: StreamLifetime

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), lifetime: lifetime)
    }

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<ModelChange>.Iterator
        let lifetime: StreamLifetime

        /// The next change, or `nil` at the end.
        public mutating func next() async -> ModelChange? { await base.next() }
    }
}

extension NavSessionClient {
    /// Follows one model of a window (swift-navigation's `observe`): `Window1.FollowModel`, then each
    /// `ModelChanged` the daemon addresses to this connection for it. Changes of other models are never sent
    /// here. When this returns, the daemon sends the model's changes.
    ///
    /// ```swift
    /// for await change in try await client.follow(detail, in: window) { print(change.params, change.transaction) }
    /// ```
    /// - Parameter model: the model (`ModelID(rawValue: 0)`: the active model now).
    /// - Throws: ``NavSessionError/unknownModel(_:)``, ``NavSessionError/limitsExceeded(_:)``, call errors.
    public func follow(_ model: ModelID, in window: WindowProxy) async throws(NavSessionError) -> ModelChanges {
        let owner = try await daemonOwner()
        // 0 is the active model now: resolved first, so the stream keeps only that model's changes.
        let model = model.rawValue == 0 ? try await window.activeModel : model
        let path = window.objectPath
        let signals = try await mappingErrors {
            try await bus.signals(matching: MatchRule(
                sender: owner, path: path, interface: ObjectPaths.windowInterface,
                member: try MemberName(NavSessionInterface.Window1.modelChanged)))
        }
        _ = try await window.call("FollowModel", [.uint64(UInt64(clamping: model.rawValue))])
        let (stream, continuation) = AsyncStream<ModelChange>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            for await signal in signals {
                guard signal.arguments.count == 3, let id = signal.arguments[0].uint64,
                      let version = signal.arguments[1].uint64, let json = signal.arguments[2].string
                else { continue }
                let change = ModelChange(model: ModelID(rawValue: Int(clamping: id)), version: version, changeJSON: json)
                guard change.model == model else { continue }
                continuation.yield(change)
                if change.finished { break }
            }
            continuation.finish()
            _ = try? await window.call("UnfollowModel", [.uint64(UInt64(clamping: model.rawValue))])
        }
        continuation.onTermination = { _ in task.cancel() }
        return ModelChanges(stream: stream, lifetime: StreamLifetime(task))
    }
}
