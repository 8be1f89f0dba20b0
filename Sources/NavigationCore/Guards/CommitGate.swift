/// A check a window's owner runs on a change after it is computed and before it commits (the guard providers
/// of Docs/guards.md): it sees the models the change enters and leaves and may refuse the change by throwing,
/// which rolls the change back like any failed command.
///
/// The window looks only at screens in ``screens``: a change that touches none of them (and a window that is
/// not ``alwaysConsulted``) commits without calling ``decide`` and without allocating anything.
public struct CommitGate {
    /// The moments a screen is watched at.
    public struct Moments: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A model of the screen starts.
        public static let enter = Moments(rawValue: 1)
        /// A model of the screen finishes or is suspended.
        public static let leave = Moments(rawValue: 2)
    }

    /// One model a change enters or leaves.
    public struct Touched: Sendable, Hashable {
        /// The model.
        public let id: ModelID
        /// Its screen.
        public let screen: String
    }

    /// What a change is about to do, shown to ``decide``.
    public struct Change {
        /// The window's version before the change.
        public let version: Int
        /// The change's cause (commands, a report, routes, a state…).
        public let cause: ChangeCause
        /// The models it starts whose screens the gate watches on entering.
        public let entered: [Touched]
        /// The models it finishes or suspends whose screens the gate watches on leaving.
        public let left: [Touched]
        /// Whether this is a dry run (`Check`): nothing will commit.
        public let dryRun: Bool
    }

    /// The screens watched, with their moments.
    public var screens: [String: Moments]
    /// Consult ``decide`` for every change, covered or not (a window whose earlier change waits for a decision).
    public var alwaysConsulted = false
    /// Decides: returns to let the change commit, throws to refuse it (nothing changes).
    public var decide: (Change) throws(NavigationError) -> Void

    /// A gate watching `screens`.
    public init(screens: [String: Moments], decide: @escaping (Change) throws(NavigationError) -> Void) {
        self.screens = screens
        self.decide = decide
    }
}

extension NavigationWindow {
    /// Runs the commit gate, if any, on the planned change. O(size of the change).
    func checkGate(started: [Node], removed: [Node], suspended: [Node], cause: ChangeCause, dryRun: Bool)
        throws(NavigationError)
    {
        guard let gate = commitGate else { return }
        var covered = gate.alwaysConsulted
        if !covered {
            for node in started where gate.screens[node.screen]?.contains(.enter) == true {
                covered = true
                break
            }
        }
        if !covered {
            for node in removed where node.started && gate.screens[node.screen]?.contains(.leave) == true {
                covered = true
                break
            }
        }
        if !covered {
            for node in suspended where gate.screens[node.screen]?.contains(.leave) == true {
                covered = true
                break
            }
        }
        guard covered else { return }
        var entered: [CommitGate.Touched] = []
        var left: [CommitGate.Touched] = []
        for node in started where gate.screens[node.screen]?.contains(.enter) == true {
            entered.append(CommitGate.Touched(id: node.id, screen: node.screen))
        }
        for node in removed where node.started && gate.screens[node.screen]?.contains(.leave) == true {
            left.append(CommitGate.Touched(id: node.id, screen: node.screen))
        }
        for node in suspended where gate.screens[node.screen]?.contains(.leave) == true {
            left.append(CommitGate.Touched(id: node.id, screen: node.screen))
        }
        try gate.decide(CommitGate.Change(version: version, cause: cause, entered: entered, left: left, dryRun: dryRun))
    }
}
