/// Bounded waits on streams (signals, name events), so a test fails instead of hanging when an event never comes.
extension AsyncStream where Element: Sendable {
    /// The first element that satisfies `predicate` within `timeout`; nil when the stream ends or time runs out.
    ///
    /// The stream is consumed up to and including the returned element.
    public func first(
        within timeout: Duration, where predicate: @escaping @Sendable (Element) -> Bool = { _ in true }
    ) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                for await element in self where predicate(element) { return element }
                return nil
            }
            group.addTask {
                // The deadline for the race above, not a wait for an event.
                try? await Task.sleep(for: timeout)
                return nil
            }
            let result = await group.next() ?? nil
            group.cancelAll()
            return result
        }
    }
}

extension AsyncStream where Element: Sendable {
    /// A stream of what `producers` return, each in a task of its own, in the order they finish (nil results
    /// are left out); the tasks are cancelled when the stream's consumer stops. With
    /// ``first(within:where:)``, the first of several events with one deadline: a daemon owning its name or
    /// exiting, a child exiting or time running out.
    public static func racing(_ producers: [@Sendable () async -> Element?]) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let tasks = producers.map { produce in
                Task {
                    if let element = await produce() { continuation.yield(element) }
                }
            }
            let all = Task {
                for task in tasks { await task.value }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                for task in tasks { task.cancel() }
                all.cancel()
            }
        }
    }
}
