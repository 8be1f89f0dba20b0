import Dispatch
import Foundation

/// SIGINT/SIGTERM as an async stream, delivered by Dispatch rather than an async-signal-unsafe handler.
enum InterruptSignal {
    /// Ignores the default action of SIGINT and SIGTERM and yields once per delivery.
    static func stream() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        let holder = SourceHolder(sources)
        continuation.onTermination = { _ in holder.cancel() }
        return stream
    }

    /// Keeps the sources alive for as long as the stream is, and cancels them with it.
    private final class SourceHolder: Sendable {
        nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

        init(_ sources: [any DispatchSourceSignal]) {
            self.sources = sources
        }

        /// Safe from any thread: `DispatchSource.cancel` is thread-safe and `sources` is never mutated.
        func cancel() {
            for source in sources { source.cancel() }
        }
    }
}
