import Logging

/// Message handlers declared in the manifest (Docs/navigation-core.md, "Message handlers"):
/// a message sent by `sendMessage` runs, in the same change, the commands of the nearest model up the recipient's
/// parent chain (the recipient first) whose screen handles the message's name.
extension NavigationWindow {
    /// How deeply handlers may nest (a handler's commands sending a message that runs another handler…).
    public static let maxHandlerDepth = 8

    /// Runs the handler of `message` for `recipient`, if a model up its chain has one. O(depth) when handlers are
    /// declared; not called at all when none is.
    func handle(_ message: NavigationMessage, at recipient: Node) throws(NavigationError) {
        let handlers = configuration.messageHandlers
        var current: Node? = recipient
        while let node = current {
            if let commands = handlers[node.screen]?[message.name] {
                if handling.contains(where: { $0.model == node.id && $0.message == message.name }) {
                    throw .handlerCycle(message: message.name, model: node.id)
                }
                guard handling.count < Self.maxHandlerDepth else {
                    throw .handlerDepthExceeded(message: message.name, depth: Self.maxHandlerDepth)
                }
                handling.append((node.id, message.name))
                defer { handling.removeLast() }
                logger.debug("message handled", metadata: ["model": "\(node.id)", "name": "\(message.name)"])
                for command in commands { try run(command, from: node.id) }
                return
            }
            current = node.parent.flatMap { nodes[$0] }
        }
    }
}
