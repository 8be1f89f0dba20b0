import Foundation
import NavigationCore
import NavigationSession

/// Checks shared by the harnesses.
enum Invariants {
    /// Every window of `session` is valid: unique numbers below the counter, a declared scene, and a
    /// graph whose snapshot validates and survives a JSON round trip.
    static func check(_ session: Session, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        var numbers: Set<WindowNumber> = []
        for window in session.windows {
            guard numbers.insert(window.number).inserted else {
                throw InvariantViolation("\(context()): window \(window.number) is listed twice")
            }
            guard window.number < session.nextWindowNumber else {
                throw InvariantViolation(
                    "\(context()): window \(window.number) is not below the counter \(session.nextWindowNumber)")
            }
            guard session.manifest.scene(window.scene) != nil else {
                throw InvariantViolation("\(context()): window \(window.number) has undeclared scene '\(window.scene)'")
            }
            try check(window.graph.snapshot(), "\(context()): window \(window.number)")
            for text in [window.scene, window.closeOnExitOwner, window.pendingDeepLink].compactMap(\.self) {
                try noNUL(text, "\(context()): window \(window.number)'s scene, owner or pending link")
            }
        }
    }

    /// No string in `value` holds a NUL byte: everything a parser produces ends up in D-Bus strings,
    /// which cannot carry one (a NUL that got into a graph made every later read of the window fail).
    /// Checked on `value`'s JSON, where `JSONEncoder` writes NUL as `\u0000`.
    static func noNUL(_ value: some Encodable, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        let encoder = JSONOutput.encoder()
        let json: String
        do {
            json = String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw InvariantViolation("\(context()): a \(type(of: value)) does not encode: \(error)")
        }
        guard !JSONString.containsNULEscape(json) else {
            throw InvariantViolation("\(context()): a string holds a NUL byte (D-Bus cannot send it): \(json.prefix(512))")
        }
    }

    /// `text` holds no NUL byte (see ``noNUL(_:_:)``).
    static func noNUL(_ text: String, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        guard !text.utf8.contains(0) else {
            throw InvariantViolation("\(context()): a string holds a NUL byte (D-Bus cannot send it): \(text.debugDescription.prefix(512))")
        }
    }

    /// The snapshot validates and decodes from its own JSON to an equal value.
    static func check(_ snapshot: WindowSnapshot, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        do {
            _ = try WindowSnapshot(
                version: snapshot.version, nextModelID: snapshot.nextModelID, root: snapshot.root,
                models: snapshot.models, isClosed: snapshot.isClosed)
        } catch {
            throw InvariantViolation("\(context()): the graph's snapshot does not validate: \(error)")
        }
        try roundTrip(snapshot, context())
        try noNUL(snapshot, context())
    }

    /// `value` encodes, and decodes from that JSON to an equal value.
    static func roundTrip<T: Codable & Equatable>(_ value: T, _ context: @autoclosure () -> String) throws(InvariantViolation) {
        let encoder = JSONOutput.encoder()
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw InvariantViolation("\(context()): a decoded \(T.self) does not encode: \(error)")
        }
        let again: T
        do {
            again = try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw InvariantViolation(
                "\(context()): \(T.self) does not decode from its own JSON \(String(decoding: data, as: UTF8.self)): \(error)")
        }
        guard again == value else {
            throw InvariantViolation(
                "\(context()): \(T.self) changes in a JSON round trip: \(value) → \(String(decoding: data, as: UTF8.self)) → \(again)")
        }
    }

    /// What a session looks like from outside, for comparing a session with its reloaded copy.
    struct SessionState: Equatable {
        struct Window: Equatable {
            var number: WindowNumber
            var scene: String
            var closeOnExitOwner: String?
            var pendingDeepLink: String?
            var snapshot: WindowSnapshot
        }
        var version: UInt64
        var nextWindowNumber: WindowNumber
        var windows: [Window]

        init(_ session: Session) {
            version = session.version
            nextWindowNumber = session.nextWindowNumber
            windows = session.windows.map {
                Window(
                    number: $0.number, scene: $0.scene, closeOnExitOwner: $0.closeOnExitOwner,
                    pendingDeepLink: $0.pendingDeepLink, snapshot: $0.graph.snapshot())
            }
        }
    }
}
