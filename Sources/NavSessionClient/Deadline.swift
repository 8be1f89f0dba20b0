/// The deadline race `waitSettled`, `wait` and `waitUntilClosed` share.
enum Deadline {
    /// `body`'s result, or `nil` when `timeout` passes first; whichever finishes second is cancelled.
    ///
    /// The deadline of the race, not a poll: `body` reacts to the signals or changes it follows.
    static func race<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
