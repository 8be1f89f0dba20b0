import DBusKit
import Logging
import NavSessionInterface
import NavigationCore
import NavigationSession
import Synchronization

/// One answer to "may this happen?" (Docs/guards.md): a provider's verdict is kept by the session for the window
/// version it was about, so `Check`, `BeginBack` and the `Can*` properties say what the change itself would get.
///
/// The `Can*` properties never wait: after a change, a question no kept verdict answers is asked in the background
/// (a *probe*: nobody's reply is held, the window is not busy), and the properties are read again with the answer,
/// announced with `PropertiesChanged` when they change. Kept verdicts go stale with the window's version, and are
/// dropped when the guard's provider changes or calls Session1 `RefreshGuard` (its answers may have changed).
extension SessionService {
    /// Keeps a provider's answer (allow, deny, redirect) and reads the window's properties again with it.
    func keep(_ verdict: Verdict, for question: GuardQuestion, on bus: isolated Bus) {
        let kept: GuardVerdict
        switch verdict {
        case .allow: kept = .allow
        case .deny(let reason): kept = .deny(reason)
        case .redirect: kept = .redirect
        case .noAnswer, .gone: return
        }
        state.withLock { $0.session.remember(kept, for: question) }
        refreshOffers(of: [question.window], on: bus)
    }

    /// Reads the properties of `windows` again (all windows when `nil`: a provider registered, left or refreshed),
    /// announces what changed and asks the questions the `Can*` values were read without.
    func refreshOffers(of windows: [WindowNumber]? = nil, on bus: isolated Bus) {
        guard hasGuards else { return }
        let (changes, probes) = state.withLock { state in
            let changes: [(WindowNumber, [(name: MemberName, value: Value)])] =
                (windows ?? state.session.windows.map(\.number)).compactMap { number in
                    (try? state.refreshProperties(number)).map { (number, $0) }
                }
            return (changes, changes.compactMap { state.properties[$0.0]?.probe })
        }
        for (number, changed) in changes where !changed.isEmpty {
            do {
                try bus.propertiesChanged(changed, interface: names.windowInterface, at: try path(of: number))
            } catch {
                logger.warning("cannot announce window \(number)'s abilities: \(error)")
            }
        }
        askProbes(probes, on: bus)
    }

    /// Asks, in the background, the questions `Can*` values were read without, each once per window version; a
    /// provider that let its last question time out is not asked (its moves stay offered).
    func askProbes(_ probes: [GuardQuestion], on bus: isolated Bus) {
        let now = ContinuousClock.now
        for question in probes {
            let fresh = probesAsked.withLock { asked -> Bool in
                var set = asked[question.window] ?? []
                if let any = set.first, any.version != question.version { set = [] }
                guard set.insert(question).inserted else { return false }
                asked[question.window] = set
                return true
            }
            guard fresh else { continue }
            if let until = unresponsiveGuards.withLock({ $0[question.guardName] }), until > now { continue }
            Task {
                let verdict = await Self.ask(question, on: bus)
                self.noteResponsiveness(question, verdict)
                self.keep(verdict, for: question, on: bus)
            }
        }
    }

    /// Session1 `RefreshGuard(s name)`: the provider says its answers may have changed (the form it guards became
    /// dirty or clean); its kept verdicts go and the `Can*` properties are read again (asking it anew).
    func refreshGuardMethod() -> MethodRow {
        MethodRow("RefreshGuard", .custom { call, bus in
            guard let sender = call.sender else { throw BusError(.invalidArgs, "the call has no sender") }
            let name = call.arguments[0].string ?? ""
            try self.withSession { state in
                guard self.manifest.guards[name] != nil else { throw SessionError.unknownGuard(name) }
                guard state.session.guardRegistrations[name] == sender.rawValue else {
                    throw SessionError.accessDenied("\(sender.rawValue) is not the provider of guard '\(name)'")
                }
                state.session.forgetVerdicts(of: name)
            }
            self.probesAsked.withLock { $0.removeAll() }
            self.refreshOffers(on: bus)
            return []
        })
    }
}
