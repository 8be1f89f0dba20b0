import DBusKit
import Logging
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore
import NavigationRouting
import NavigationSession

extension SessionService {
    /// Announces an outcome, in order: what its events say — exports and unexports (ObjectManager signals),
    /// `Changed`, `Message`, `OpenExternalURL`, `Effect` —; then, coalesced, one Session1 `PropertiesChanged`
    /// (Windows, Version) if windows opened or closed, and one Window1 `PropertiesChanged` per window listing
    /// only the properties that changed.
    ///
    /// The one announcer: isolated to the bus, every signal is a synchronous call on the bus thread. The
    /// Window1 property values are computed after the event signals, so a renderer's `Changed` leaves first.
    func announce(_ outcome: SessionOutcome, on bus: isolated Bus) {
        var windowsChanged = false
        for event in outcome.events {
            switch event {
            case .windowOpened, .windowClosed: windowsChanged = true
            default: break
            }
            announce(event, on: bus)
        }
        if windowsChanged {
            do {
                try bus.propertiesChanged(
                    [names.windows, names.version], interface: names.sessionInterface, at: names.sessionPath)
            } catch {
                logger.warning("cannot announce the session's property changes: \(error)")
            }
        }
        let (changes, followed, probes) = state.withLock { state in
            // With the guard providers' questions the new `Can*` values were read without (none without a provider).
            let (changes, probes) = state.refresh(after: outcome)
            return (changes, state.followedChanges(outcome), probes)
        }
        do {
            for (number, change) in changes.sorted(by: { $0.key < $1.key }) {
                try bus.propertiesChanged(
                    change.changed, invalidated: change.routesInvalidated ? [WindowProperties.routes] : [],
                    interface: names.windowInterface, at: try self.path(of: number))
            }
        } catch {
            logger.warning("cannot announce property changes: \(error)")
        }
        if !followed.isEmpty { announceFollowed(followed, on: bus) }
        if !probes.isEmpty { askProbes(probes, on: bus) }
        // The questions asked for a closed window's properties go with it (only while guards are declared).
        if hasGuards, windowsChanged {
            let closed = outcome.closedWindows
            if !closed.isEmpty { probesAsked.withLock { asked in for number in closed { asked[number] = nil } } }
        }
    }

    /// The signals of one event.
    private func announce(_ event: SessionEvent, on bus: isolated Bus) {
        do {
            switch event {
            case .windowOpened(let number, _):
                try bus.export([try windowInterface()], at: try self.path(of: number))
            case .windowClosed(let number, _):
                try bus.unexport(at: try self.path(of: number))
            case .changed(let number, let change, let steps, let causeJSON):
                try emitChanged(change, steps: steps, window: number, causeJSON: causeJSON, on: bus)
            case .moved:
                // Each window's `Changed` carries the move in its cause; follows are carried with the properties.
                break
            case .grouped:
                // The window's `Group` property, with the others after the events.
                break
            case .rendererSteps(let number, let version, let planned):
                // Each registered renderer gets the steps planned for what it can animate, addressed to it alone.
                for renderer in planned {
                    guard let name = try? BusName(renderer.client), !bus.isBehind(name) else { continue }
                    try bus.emit(
                        path: try path(of: number), interface: names.windowInterface, member: names.steps,
                        arguments: [.uint64(UInt64(clamping: version)), .string(renderer.json), .string(renderer.renderer)],
                        destinations: [name])
                }
            case .announcement(let number, let announcement):
                try emit(
                    names.announcement, window: number, on: bus,
                    [.uint64(UInt64(clamping: announcement.version)), .string(announcement.text),
                     .uint64(UInt64(clamping: announcement.focus.rawValue))])
            case .manifestReloaded:
                try bus.propertiesChanged(
                    [names.scenes, names.screens, names.screenTitles, names.guards], interface: names.sessionInterface,
                    at: names.sessionPath)
            case .message(let number, let delivered):
                var payload = ["payload": delivered.message.payload]
                if let sender = delivered.sender { payload["sender"] = String(sender.rawValue) }
                try emit(
                    names.message, window: number, on: bus,
                    [
                        .uint64(UInt64(clamping: delivered.recipient.rawValue)), .string(delivered.message.name),
                        .stringDictionary(payload),
                    ])
            case .externalURL(let number, let url):
                try emit(names.openExternalURL, window: number, on: bus, [.string(url)])
            case .trigger(let number, let name, let payload):
                try emit(names.effect, window: number, on: bus, [.string(name), .stringDictionary(["payload": payload])])
            case .changeFailed(let number, let effect, let id, let error):
                let payload = (id.map { "\($0): " } ?? "") + "\(error.errorName): \(error.message)"
                try emit(names.effect, window: number, on: bus, [.string(effect), .stringDictionary(["payload": payload])])
            case .effectFailed(let number, let effect, let error):
                logger.warning("window \(number): effect \(effect) failed: \(error)")
                // Never only a log line: whoever watches the window learns that the effect failed.
                switch effect {
                case .openURL(let url):
                    try emit(
                        names.effect, window: number, on: bus,
                        [.string("deepLinkFailed"), .stringDictionary(["url": url, "error": error.errorName])])
                case .openWindow(let scene, _):
                    try emit(
                        names.effect, window: number, on: bus,
                        [.string("effectFailed"), .stringDictionary([
                            "effect": "openWindow", "scene": scene, "error": error.errorName, "message": error.message,
                        ])])
                case .dismissWindow(let id):
                    try emit(
                        names.effect, window: number, on: bus,
                        [.string("effectFailed"), .stringDictionary([
                            "effect": "dismissWindow", "window": id ?? "", "error": error.errorName,
                            "message": error.message,
                        ])])
                case .trigger:
                    break
                }
            }
        } catch {
            logger.warning("cannot announce \(event): \(error)")
        }
    }

    /// Tells the window's renderer that the desktop activated it (`Effect("activate", …)`), with the
    /// platform data it needs to raise the window correctly (`activation-token` for Wayland's
    /// xdg-activation, `desktop-startup-id` for X11 startup notification); the daemon has no windows to raise.
    func announceActivation(of window: WindowNumber, platformData: Value, on bus: isolated Bus) {
        var args: [String: String] = [:]
        for entry in platformData.dictionaryEntries ?? [] {
            guard let key = entry.key.string, key == "activation-token" || key == "desktop-startup-id",
                  let value = (entry.value.variantValue ?? entry.value).string
            else { continue }
            args[key] = value
        }
        do {
            try emit(names.effect, window: window, on: bus, [.string("activate"), .stringDictionary(args)])
        } catch {
            logger.warning("cannot announce the activation of window \(window): \(error)")
        }
    }

    /// Announces what a change did or refused besides its outcome (``ChangeResult``): a `Window1.Prevented` for each
    /// change a protection mark refused, then the changes made in a refused change's place (a mark's dialog). Every
    /// way a change is made calls it before announcing the outcome, whether the change applied or not.
    func announceSideEffects(of result: ChangeResult, on bus: isolated Bus) {
        for refusal in result.refusals {
            do {
                try emit(
                    names.prevented, window: refusal.window, on: bus,
                    [
                        .uint64(UInt64(clamping: refusal.model.rawValue)), .string(refusal.reason), .string(refusal.owner),
                        .string(refusal.dialog ?? ""),
                    ])
            } catch {
                logger.warning("announcing a refusal in window \(refusal.window): \(error)")
            }
        }
        if let made = result.madeInstead { announce(made, on: bus) }
    }

    func emit(_ member: MemberName, window: WindowNumber, on bus: isolated Bus, _ arguments: [Value]) throws {
        try bus.emit(path: try self.path(of: window), interface: names.windowInterface, member: member, arguments: arguments)
        if let recorder = EmittedDocuments.shared { Self.recordSignal(member, arguments, recorder) }
    }

    /// Test only: records a Window1 signal's JSON arguments (those named `…_json`) as `Signal.argument`.
    static func recordSignal(_ member: MemberName, _ arguments: [Value], _ recorder: EmittedDocuments) {
        guard let signal = (try? window1Signals())?.first(where: { $0.name == member }) else { return }
        _ = recorded(arguments, member.rawValue, signal.arguments, recorder)
    }

    private func emitChanged(
        _ change: ChangeEvent, steps: [NavigationStep], window: WindowNumber, causeJSON: String, on bus: isolated Bus
    ) throws {
        let version = UInt64(clamping: change.version)
        try emit(
            names.changed, window: window, on: bus,
            [
                .uint64(version), .uint64(version &- 1), .string(causeJSON), .boolean(change.animated),
                .modelIDs(change.started),
                .modelIDs(change.finished),
                .string(NavigationStep.json(steps)),
            ])
    }

    // MARK: Clients leaving

    /// Closes restored windows whose close-on-exit client is gone, drops marks whose owner is gone and the marking
    /// batches of authors that are gone (the others are seen leaving by ``watchDepartures(on:)``, which must run
    /// first).
    ///
    /// Every owner and author still on the bus is joined to its process first, and only then are the gone ones
    /// handled: handling one is a change, and no change — a scheduled batch that is overdue among them — may be
    /// checked against the shares while a restored owner still counts in a share of its own (its process's marks
    /// would be undercounted).
    func checkRestoredOwners(on bus: Bus) async {
        let owners = state.withLock { state in
            Set(state.session.windows.compactMap(\.closeOnExitOwner)).union(state.session.markOwners)
        }
        var gone: [String] = []
        for owner in owners.sorted() {
            if let name = try? BusName(owner), (try? await bus.nameHasOwner(name)) == true {
                await joinProcess(of: owner, on: bus)
            } else {
                gone.append(owner)
            }
        }
        for owner in gone { await clientVanished(owner, on: bus) }
    }

    /// Calls `handle` with each unique name whose `NameOwnerChanged` has an empty owner at `ownerArgument` (1, the
    /// old owner: the name joined; 2, the new owner: it left), in order, while the bus lives.
    private func watchUniqueNames(
        ownerArgument: Int, on bus: Bus, _ handle: @escaping @Sendable (String, Bus) async -> Void
    ) async throws {
        let rule = MatchRule(
            sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"), arguments: [ownerArgument: ""])
        let signals = try await bus.signals(matching: rule)
        Task { [weak bus] in
            for await signal in signals {
                guard let bus else { return }
                guard let name = signal.arguments.first?.string, name.hasPrefix(":") else { continue }
                await handle(name, bus)
            }
        }
    }

    /// Subscribes once to every unique name leaving the bus and tells the session (close-on-exit ties,
    /// per-client shares).
    ///
    /// One match rule for all clients rather than one per client: dbus-daemon allows a connection 512 match
    /// rules (compiled-in `max_match_rules_per_connection`), and every client that changes anything has a share.
    func watchDepartures(on bus: Bus) async throws {
        try await watchUniqueNames(ownerArgument: 2, on: bus) { name, bus in await self.clientVanished(name, on: bus) }
    }

    /// Subscribes once to every unique name joining the bus and tells the session which process it belongs to
    /// (``processShare(of:on:)``), so every connection of one process charges one share (Docs/reliability.md).
    /// A connection's first call can come before the answer: what it charged then moves to its process's share.
    func watchArrivals(on bus: Bus) async throws {
        try await watchUniqueNames(ownerArgument: 1, on: bus) { name, bus in
            Task { await self.joinProcess(of: name, on: bus) }
        }
        // The connections already on the bus (a daemon started, or restarted, after its clients), without
        // holding up the start.
        Task { [weak bus] in
            guard let bus,
                let names = try? await bus.call(
                    destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("ListNames"), timeout: .seconds(25))
            else { return }
            for name in names.first?.stringArray ?? [] where name.hasPrefix(":") {
                await self.joinProcess(of: name, on: bus)
            }
        }
    }

    /// Tells the session `name`'s process (its own name when the bus cannot say, so it is not asked again).
    func joinProcess(of name: String, on bus: Bus) async {
        guard name != (await bus.uniqueName)?.rawValue else { return }
        if state.withLock({ $0.session.knowsProcess(of: name) }) { return }
        let process = await processShare(of: name, on: bus) ?? name
        let app = Self.sandboxAppID(ofProcessShare: process)
        state.withLock { $0.session.join(client: name, process: process, app: app) }
    }

    /// The Flatpak app id of the process `share` names (`pid:N`): the `name` its sandbox's `.flatpak-info` gives, read
    /// where the process sees its root (`/proc/N/root/.flatpak-info`, as xdg-desktop-portal reads it); `""` when the
    /// process has no such file (it is not in a sandbox); `nil` when the process is not known (a `uid:` share): no
    /// `host` or `app:` principal of a window policy matches it then.
    static func sandboxAppID(ofProcessShare share: String) -> String? {
        guard share.hasPrefix("pid:"), let pid = Int32(share.dropFirst(4)), pid > 0 else { return nil }
        return Session.sandboxAppID(pid: pid)
    }

    /// The share key of `name`'s process: `pid:<pid>` from the bus (`GetConnectionUnixProcessID`), else
    /// `uid:<uid>` (`GetConnectionUnixUser`), else nil (it keeps a share of its own).
    func processShare(of name: String, on bus: Bus) async -> String? {
        for (member, prefix) in [("GetConnectionUnixProcessID", "pid:"), ("GetConnectionUnixUser", "uid:")] {
            guard
                let reply = try? await bus.call(
                    destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName(member), arguments: [.string(name)], timeout: .seconds(25)),
                let number = reply.first?.uint32
            else { continue }
            return prefix + String(number)
        }
        return nil
    }

    /// Closes the windows tied to `uniqueName`, forgets its shares and announces it; nothing for a client
    /// the session never heard of.
    func clientVanished(_ uniqueName: String, on bus: isolated Bus) {
        settlerVanished(uniqueName, on: bus)
        // Changes it sent that still waited for its process to be known are not made for a client that is gone
        // (a mark made now would outlive its owner); their held replies are let go.
        for waiting in awaitingProcess.withLock({ $0.removeValue(forKey: uniqueName) ?? [] }) {
            bus.sendHeldReply(waiting.held, error: BusError(.failed, "the caller left the bus"))
        }
        guard state.withLock({ $0.session.isTracking(client: uniqueName) }) else { return }
        let providedGuards = state.withLock { $0.session.guardRegistrations.values.contains(uniqueName) }
        do {
            let outcome = try perform(on: bus) { session in try session.clientVanished(uniqueName: uniqueName) }
            if outcome.closedWindows.isEmpty {
                logger.debug("\(uniqueName) left the bus")
            } else {
                logger.info("\(uniqueName) left the bus; closed \(outcome.closedWindows.count) window(s)")
            }
        } catch {
            logger.warning("closing the windows of \(uniqueName): \(error)")
        }
        if providedGuards { announceGuards(on: bus) }
    }
}
