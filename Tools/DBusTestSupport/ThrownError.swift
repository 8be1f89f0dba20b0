/// What `body` threw, when it threw an `E`; otherwise nil, and `unexpected` says what happened instead (it
/// returned, or threw another error). For the test suites' `busError`-style helpers, which record `unexpected`
/// as an issue of their own framework.
public func thrownError<E: Error>(
    _ type: E.Type, _ body: () async throws -> some Any
) async -> (error: E?, unexpected: String?) {
    do {
        let value = try await body()
        return (nil, "expected a \(E.self), got \(value)")
    } catch let error as E {
        return (error, nil)
    } catch {
        return (nil, "expected a \(E.self), got \(error)")
    }
}
