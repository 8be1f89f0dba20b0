import Logging

/// Message listeners, direct sends, and the outboxes the session drains.
extension NavigationWindow {
    /// A token identifying one registered listener.
    public struct ListenerToken: Hashable, Sendable {
        /// The model the listener is registered on.
        public let model: ModelID
        let id: Int
    }

    /// Registers a synchronous listener for messages delivered to `model`.
    ///
    /// Listeners run in registration order, after the change that produced the message is committed.
    /// They are dropped automatically once the model's `finished` message has been delivered.
    /// - Throws: ``NavigationError/unknownModel(_:)``.
    @discardableResult
    public func onMessage(
        _ model: ModelID, _ handler: @escaping (DeliveredMessage) -> Void
    ) throws(NavigationError) -> ListenerToken {
        guard nodes[model] != nil else { throw .unknownModel(model) }
        let token = ListenerToken(model: model, id: nextListenerID)
        nextListenerID += 1
        listeners[model, default: []].append((id: token.id, handler: handler))
        return token
    }

    /// Removes a listener; removing one twice does nothing.
    public func removeListener(_ token: ListenerToken) {
        listeners[token.model]?.removeAll { $0.id == token.id }
    }

    /// Delivers an application message to `model` right away, outside any change (no version bump).
    ///
    /// The delivery is also appended to the message outbox (``drainMessages()``).
    /// - Throws: ``NavigationError/unknownModel(_:)``; ``NavigationError/savedModel(_:container:screen:)`` for a
    ///   model of a kept branch (suspended); ``NavigationError/windowClosed``.
    @discardableResult
    public func sendMessage(
        _ message: NavigationMessage, to model: ModelID, from sender: ModelID? = nil
    ) throws(NavigationError) -> DeliveredMessage {
        guard !isClosed else { throw .windowClosed }
        _ = try attachedNode(model)
        let delivery = DeliveredMessage(recipient: model, sender: sender, message: message)
        deliver(delivery)
        return delivery
    }

    func deliver(_ delivery: DeliveredMessage) {
        messageQueue.append(delivery)
        logger.debug(
            "message",
            metadata: [
                "model": "\(delivery.recipient)", "name": "\(delivery.message.name)",
                "payload": "\(delivery.message.payload)",
            ])
        for listener in listeners[delivery.recipient] ?? [] { listener.handler(delivery) }
    }

    /// Effects enqueued and not yet drained, oldest first.
    public var pendingEffects: [QueuedEffect] { effectQueue }

    /// Returns and clears the queued effects, oldest first; none is ever dropped before this.
    public func drainEffects() -> [QueuedEffect] {
        defer { effectQueue.removeAll() }
        return effectQueue
    }

    /// Returns and clears every delivered message (from changes and direct sends) since the last drain.
    public func drainMessages() -> [DeliveredMessage] {
        defer { messageQueue.removeAll() }
        return messageQueue
    }
}
