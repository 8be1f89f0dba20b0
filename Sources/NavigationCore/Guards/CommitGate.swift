/// The screens a window's owner watches (the guards of Docs/guards.md): a change that enters or leaves one of them
/// does not commit until its owner has decided about it. The window never calls its owner: it refuses the change
/// with ``NavigationError/undecided(_:)``, carrying what the change would do (a ``Change``, a value), and rolls it
/// back like any failed command; the owner decides, and to let it commit sets ``decided`` to that value and applies
/// the same change again (the window is deterministic: the same change stops at the same point with the same value,
/// which now passes).
///
/// The window looks only at screens in ``screens``: a change that touches none of them (and a window that is
/// not ``alwaysConsulted``) commits without stopping and without allocating anything.
public struct CommitGate: Sendable {
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

    /// What a change is about to do: the value a stopped change carries to the window's owner.
    public struct Change: Sendable, Hashable {
        /// The window's version before the change.
        public let version: Int
        /// The change's cause (commands, a report, routes, a state…).
        public let cause: ChangeCause
        /// The models it starts whose screens the gate watches on entering.
        public let entered: [Touched]
        /// The models it finishes or suspends whose screens the gate watches on leaving.
        public let left: [Touched]
        /// Whether this is a dry run (`Check`, an ability): nothing will commit.
        public let dryRun: Bool
    }

    /// The screens watched, with their moments.
    public var screens: [String: Moments]
    /// Stop every change, covered or not (a window whose earlier change waits for a decision).
    public var alwaysConsulted = false
    /// The change the owner has let through: the next change equal to it passes the gate. The owner sets it just
    /// for applying that change again.
    public var decided: Change?

    /// A gate watching `screens`.
    public init(screens: [String: Moments]) {
        self.screens = screens
    }
}

extension NavigationWindow {
    /// Stops the planned change at the commit gate, if any covers it, unless it is the change the owner decided to
    /// let through. O(size of the change).
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
        let change = CommitGate.Change(version: version, cause: cause, entered: entered, left: left, dryRun: dryRun)
        guard gate.decided == change else { throw .undecided(change) }
    }
}
