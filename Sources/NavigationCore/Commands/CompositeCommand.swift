/// An application-defined command built from primitives (e.g. "reverse the stack").
///
/// The window expands it against the current graph and applies the result as one atomic batch, every
/// primitive running from the same executing model.
///
/// ```swift
/// try window.execute(ReverseStack())
/// try window.execute(Composite { graph, from in [.stackDropToRoot, .stackAppend(.screen("a"))] })
/// ```
public protocol CompositeCommand {
    /// Returns the primitives to run from `model`; throw to reject the command.
    func commands(in window: NavigationWindow, from model: ModelID) throws(NavigationError) -> [NavigationCommand]
}

/// A closure-based ``CompositeCommand``.
public struct Composite: CompositeCommand {
    let body: (NavigationWindow, ModelID) throws(NavigationError) -> [NavigationCommand]

    /// Wraps a closure that reads the window and returns primitives.
    public init(_ body: @escaping (NavigationWindow, ModelID) throws(NavigationError) -> [NavigationCommand]) {
        self.body = body
    }

    public func commands(in window: NavigationWindow, from model: ModelID) throws(NavigationError) -> [NavigationCommand] {
        try body(window, model)
    }
}

/// `stackMap`: replaces the path of the stack above the executing model with a transform of it.
///
/// Kept elements stay alive (a pure reorder finishes nothing); elements left out finish.
/// Fails with ``NavigationError/noStack(from:)`` or ``NavigationError/emptyPath(stack:)``.
public struct StackMap: CompositeCommand {
    let transform: ([StackElement]) -> [PathEntry]

    /// Creates a stack map from a transform of the current path.
    public init(_ transform: @escaping ([StackElement]) -> [PathEntry]) { self.transform = transform }

    public func commands(in window: NavigationWindow, from model: ModelID) throws(NavigationError) -> [NavigationCommand] {
        guard let start = window.nodes[model], let stack = window.walkUp(from: start, to: .stack) else {
            throw .noStack(from: model)
        }
        let entries = transform(stack.path)
        guard !entries.isEmpty else { throw .emptyPath(stack: stack.id) }
        return [.stackSetPath(entries)]
    }
}

/// Reverses the stack above the executing model; the old top becomes the new root.
public struct ReverseStack: CompositeCommand {
    /// Creates the command.
    public init() {}

    public func commands(in window: NavigationWindow, from model: ModelID) throws(NavigationError) -> [NavigationCommand] {
        try StackMap { path in path.reversed().map { .existing(.id($0.model), transition: $0.transition) } }
            .commands(in: window, from: model)
    }
}
