/// The fuzz harnesses: one per parser that reads untrusted text.
///
/// Each harness takes raw bytes, feeds them to the parser the way the daemon does (D-Bus strings are
/// valid UTF-8, files are raw bytes), and on success re-checks cheap invariants: a decoded value
/// re-encodes to an equal value, a loaded session's windows validate and survive a save and reload.
/// An input that breaks an invariant throws ``InvariantViolation``; the libFuzzer drivers built by
/// `scripts/fuzz` turn that into a crash, the regression tests (`ParserFuzzingTests`) into a failure.
/// Parser *errors* are expected outcomes, never violations.
///
/// ```swift
/// try bytes.withUnsafeBytes { try Harness.manifest.run($0) }
/// ```
public enum Harness: String, CaseIterable, Sendable {
    /// One command as Window1 `ExecuteAt` takes it (`JSONInput.decode(BatchCommand.self …)`), executed.
    case command
    /// A batch as Window1/Session1 `Apply` takes it (`[BatchCommand]`), applied, journaled and replayed.
    case batch
    /// Route lists (`Route.list(fromJSON:)`) and Session1 `Plan`: `from` NUL `to`.
    case routes
    /// A URL for Session1 `OpenURL`, matched by the demo manifest's router and opened in a session.
    case deepLink
    /// A manifest file (`Manifest(json:)`), validated, round-tripped and used to open windows.
    case manifest
    /// A `journal.jsonl` file loaded (and replayed) from a state directory.
    case journal
    /// A `state.json` file loaded from a state directory; bytes after a NUL byte become `journal.jsonl`.
    case snapshot

    /// The largest input passed on: the parsers' documented 1 MiB JSON limit. Longer inputs return at once.
    public static let maximumInputBytes = 1 << 20

    /// Runs one input.
    ///
    /// - Throws: ``InvariantViolation`` when the parser accepted the input but the result is inconsistent
    ///   (never for inputs the parser rejects with its own error).
    public func run(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard data.count <= Self.maximumInputBytes else { return }
        switch self {
        case .command: try CommandHarness.command(data)
        case .batch: try CommandHarness.batch(data)
        case .routes: try RouteHarness.run(data)
        case .deepLink: try DeepLinkHarness.run(data)
        case .manifest: try ManifestHarness.run(data)
        case .journal: try PersistenceHarness.journal(data)
        case .snapshot: try PersistenceHarness.snapshot(data)
        }
    }

    /// Runs one input given as an array (tests, replaying saved inputs).
    public func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let result: Result<Void, InvariantViolation> = bytes.withUnsafeBytes { buffer in
            do throws(InvariantViolation) {
                try run(buffer)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}

/// A parser accepted an input but what it produced breaks a rule it promises.
public struct InvariantViolation: Error, CustomStringConvertible, Sendable {
    /// The harness and what went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
