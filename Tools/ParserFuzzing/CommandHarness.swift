import Foundation
import NavigationCore
import NavigationSession

/// Command and batch JSON (Window1 `ExecuteAt`, `Apply`): decoded, executed in a demo session, and for
/// batches journaled and replayed.
enum CommandHarness {
    /// One command: whatever `JSONDecoder` accepts the session must accept (and the reverse), a decoded
    /// command round-trips, and the window stays valid.
    static func command(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard let text = Fixtures.busString(data) else { return }
        let decoded = decode(BatchCommand.self, text)
        if let decoded {
            try Invariants.roundTrip(decoded, "command")
            try Invariants.noNUL(decoded, "command: the decoded command")
        }
        let session = try Fixtures.loggedInDemoSession()
        do {
            try session.execute(window: 1, commandJSON: text)
            guard decoded != nil else {
                throw InvariantViolation("command: JSONDecoder rejects the command but the session executed it")
            }
        } catch let error as InvariantViolation {
            throw error
        } catch {
            try checkRejection(error, decoded: decoded != nil, invalid: { if case .invalidCommand = $0 { true } else { false } })
        }
        try Invariants.check(session, "command")
    }

    /// A batch: as ``command(_:)``, and the journal the session wrote replays to the same state.
    static func batch(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard let text = Fixtures.busString(data) else { return }
        let decoded = decode([BatchCommand].self, text)
        if let decoded {
            try Invariants.roundTrip(decoded, "batch")
            try Invariants.noNUL(decoded, "batch: the decoded batch")
        }
        let demo = try Fixtures.demoManifest()
        try Fixtures.withScratchDirectory { (directory) throws(InvariantViolation) in
            // The session ends with this function, as a killed process would: its store lets go of the
            // directory's lock, so the reload below can take it.
            func applied() throws(InvariantViolation) -> Invariants.SessionState {
                let session = try Fixtures.loggedInDemoSession(store: try store(directory))
                do {
                    try session.apply(window: 1, batchJSON: text)
                    guard decoded != nil else {
                        throw InvariantViolation("batch: JSONDecoder rejects the batch but the session applied it")
                    }
                } catch let error as InvariantViolation {
                    throw error
                } catch {
                    try checkRejection(error, decoded: decoded != nil, invalid: { if case .invalidBatch = $0 { true } else { false } })
                }
                try Invariants.check(session, "batch")
                return Invariants.SessionState(session)
            }
            let state = try applied()
            let reloadStore = try store(directory)
            let reloaded: Session
            do {
                reloaded = try Session(manifest: demo, store: reloadStore, limits: Fixtures.limits, logger: Fixtures.quiet)
            } catch {
                throw InvariantViolation("batch: the state directory does not reload: \(error)")
            }
            guard reloadStore.quarantined.isEmpty else {
                throw InvariantViolation("batch: the journal the session wrote is rejected on reload")
            }
            guard Invariants.SessionState(reloaded) == state else {
                throw InvariantViolation("batch: the journal replays to a different state")
            }
        }
    }

    /// What the session should decode: whatever `JSONDecoder` reads (the types' own `init(from:)` refuse
    /// unknown keys), except JSON with a `\u0000` escape, which the session refuses before decoding
    /// because no name or text may hold a NUL byte. A decoded value that still holds one is a violation.
    private static func decode<T: Codable>(_ type: T.Type, _ text: String) -> T? {
        guard !JSONString.containsNULEscape(text) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// A rejected input: a decodable one must fail for another reason than its JSON, an undecodable one
    /// for its JSON (or its length), and the message must say something.
    private static func checkRejection(
        _ error: any Error, decoded: Bool, invalid: (SessionError) -> Bool
    ) throws(InvariantViolation) {
        guard let error = error as? SessionError else {
            throw InvariantViolation("the session threw a foreign error: \(error)")
        }
        guard !error.message.isEmpty else { throw InvariantViolation("the session's error \(error) says nothing") }
        if decoded, invalid(error) {
            throw InvariantViolation("JSONDecoder accepts the input but the session calls its JSON invalid: \(error)")
        }
        if !decoded, !invalid(error) {
            if case .limitsExceeded = error { return }
            throw InvariantViolation("JSONDecoder rejects the input but the session failed otherwise: \(error)")
        }
    }

    static func store(_ directory: String) throws(InvariantViolation) -> SessionStore {
        do {
            return try SessionStore(directory: directory, logger: Fixtures.quiet)
        } catch {
            throw InvariantViolation("cannot open the scratch state directory: \(error)")
        }
    }
}
