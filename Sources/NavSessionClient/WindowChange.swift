import DBusKit
import NavigationCore

/// One element of ``NavSessionClient/changes(of:buffering:)``: a change of the window, or a fresh snapshot
/// after changes were missed.
public enum WindowChange: Sendable, Hashable {
    /// The window changed (`Window1.Changed`); its `previousVersion` is the version the stream saw last.
    case changed(Changed)
    /// Changes were missed (the consumer fell more than the buffer behind, or the daemon skipped a version):
    /// the stream read the window's state again. Versions continue from the snapshot's.
    case resynchronized(WindowSnapshot)

    /// The window version after this element.
    public var version: UInt64 {
        switch self {
        case .changed(let change): change.version
        case .resynchronized(let snapshot): UInt64(clamping: snapshot.version)
        }
    }

    /// The window's state after this element: the resynchronisation's snapshot, or `window`'s state read now
    /// after a change (what ``LiveWindow`` and ``NavSessionClient/wait(for:timeout:observing:until:)`` follow).
    func state(of window: WindowProxy) async throws(NavSessionError) -> WindowSnapshot {
        switch self {
        case .resynchronized(let snapshot): snapshot
        case .changed: try await window.getState()
        }
    }

    /// The arguments of one `Window1.Changed` signal.
    public struct Changed: Sendable, Hashable {
        /// The new version.
        public var version: UInt64
        /// The version before the change (always `version - 1` from the daemon).
        public var previousVersion: UInt64
        /// What caused the change, as the daemon's JSON (`{"commands":[…]}` or `{"report":{…}}`,
        /// Docs/state-schema.md); ``cause`` decodes it.
        public var causeJSON: String
        /// Whether renderers should animate the change.
        public var animated: Bool
        /// The models the change started.
        public var started: [ModelID]
        /// The models whose life ended.
        public var finished: [ModelID]
        /// The planned route states when the change needs more than one renderer step, else `[]`, as JSON.
        public var stepsJSON: String

        /// Creates a change.
        public init(
            version: UInt64, previousVersion: UInt64, causeJSON: String, animated: Bool, started: [ModelID],
            finished: [ModelID], stepsJSON: String
        ) {
            self.version = version
            self.previousVersion = previousVersion
            self.causeJSON = causeJSON
            self.animated = animated
            self.started = started
            self.finished = finished
            self.stepsJSON = stepsJSON
        }

        /// The change's transaction payload (`Apply`'s `transaction` option or the batch's
        /// `{"command":"transaction","payload":{…}}` entry), `nil` when it carries none.
        public var transaction: JSONValue? {
            guard causeJSON.contains(#""transaction""#),
                  case .object(let cause)? = try? JSONCoding.decode(JSONValue.self, from: causeJSON),
                  case .array(let commands)? = cause["commands"]
            else { return nil }
            for case .object(let entry) in commands where entry["command"] == .string("transaction") {
                return entry["payload"]
            }
            return nil
        }

        /// The cause decoded with the core's Codable, or `nil` when it does not decode.
        public var cause: ChangeCause? { try? JSONCoding.decode(ChangeCause.self, from: causeJSON) }

        /// Decodes a `Changed` signal's arguments; `nil` for any other shape.
        init?(_ arguments: [Value]) {
            guard arguments.count == 7, let version = arguments[0].uint64, let previous = arguments[1].uint64,
                  let cause = arguments[2].string, let animated = arguments[3].bool,
                  let started = arguments[4].arrayElements, let finished = arguments[5].arrayElements,
                  let steps = arguments[6].string
            else { return nil }
            self.init(
                version: version, previousVersion: previous, causeJSON: cause, animated: animated,
                started: started.compactMap(\.uint64).map { ModelID(rawValue: Int(clamping: $0)) },
                finished: finished.compactMap(\.uint64).map { ModelID(rawValue: Int(clamping: $0)) },
                stepsJSON: steps)
        }
    }
}
