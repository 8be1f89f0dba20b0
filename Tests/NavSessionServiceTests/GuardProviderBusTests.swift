import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Synchronization
import Testing

/// A guard provider on the test bus: a connection of its own exporting `org.navsession.GuardProvider1` at
/// `/org/navsession/GuardProvider1`, answering as `behaviour` says, registered for the demo's `account` guard
/// (which covers `profile`; onAbsent allow, onTimeout deny; the tests run it with ``longDeadline`` except the
/// one about the deadline itself, so an answer is never late on a busy machine).
final class TestGuardProvider: Sendable {
    enum Behaviour: Sendable {
        case allow
        case deny(String)
        case redirect(String)
        /// Answers after `delay` (past the deadline: the guard's onTimeout).
        case slow(Duration)
        /// Answers `(u)` instead of `(sss)`.
        case wrongSignature
        /// Answers an unknown verdict.
        case unknownVerdict
        /// Each answer drawn from `seed`: allow, deny, a valid or invalid redirect, slow, past the deadline,
        /// a wrong signature or an unknown verdict.
        case random(seed: UInt64)
        /// Answers allow once ``release()`` is called (with ``longDeadline``, so the question stays open until then).
        case gated
        /// Answers what `answer` holds at the time of the question ("allow", or a deny reason).
        case current(CurrentAnswer)
    }

    /// An answer a test changes while the provider runs.
    final class CurrentAnswer: Sendable {
        let verdict = Mutex("allow")
    }

    /// The demo manifest with the `account` guard's deadline at 10 s (the most a guard may wait): a gated
    /// question stays open far longer than the few calls a test makes meanwhile, even on a busy machine, so the
    /// tests order events instead of timing them.
    static let longDeadline = NavSessionTestDaemon.Configuration.Manifest.json(
        Manifest.demoJSON.replacingOccurrences(of: #""timeoutMs": 500"#, with: #""timeoutMs": 10000"#))

    /// Whether ``release()`` was called, and the gated answers waiting for it.
    let gate = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Lets the gated provider answer (also when the provider stops, so no answer is left suspended).
    func release() {
        let waiting = gate.withLock { gate in
            gate.open = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for answer in waiting { answer.resume() }
    }

    /// Suspends until ``release()``.
    func released() async {
        await withCheckedContinuation { answer in
            let open = gate.withLock { gate in
                if !gate.open { gate.waiting.append(answer) }
                return gate.open
            }
            if open { answer.resume() }
        }
    }

    /// The number of questions so far, each time one arrives.
    let asked: AsyncStream<Int>
    private let askedContinuation: AsyncStream<Int>.Continuation

    /// Waits until the daemon has asked a question (a liveness bound, not a latency one).
    func waitForQuestion() async throws {
        try #require(await asked.first(within: Liveness.bound(.seconds(30))) { $0 >= 1 } != nil, "the provider was never asked")
    }

    let bus: Bus
    let behaviour: Behaviour
    /// Every question's (guard, window, version, cause, entered, left).
    let questions = Mutex<[[String]]>([])
    /// The random behaviour's generator state.
    let state = Mutex<UInt64>(0)

    private init(bus: Bus, behaviour: Behaviour) {
        self.bus = bus
        self.behaviour = behaviour
        (asked, askedContinuation) = AsyncStream<Int>.makeStream()
    }

    static func start(_ fixture: DaemonFixture, _ behaviour: Behaviour, register: Bool = true) async throws -> TestGuardProvider {
        let bus = try await Bus.connect(.address(fixture.address))
        let provider = TestGuardProvider(bus: bus, behaviour: behaviour)
        if case .random(let seed) = behaviour { provider.state.withLock { $0 = seed } }
        typealias A = Interface.Argument
        let inputs = [
            A("guard", .string), A("window", .objectPath), A("version", .uint64), A("cause_json", .string),
            A("entered_json", .string), A("left_json", .string),
        ]
        let outputs: [A]
        if case .wrongSignature = behaviour { outputs = [A("verdict", .uint32)] } else {
            outputs = [A("verdict", .string), A("reason", .string), A("redirect_json", .string)]
        }
        let decide = try Interface.Method("Decide", inputs: inputs, outputs: outputs) { [provider] call in
            let count = provider.questions.withLock { questions in
                questions.append(call.arguments.map { $0.string ?? $0.objectPath?.rawValue ?? "\($0.uint64 ?? 0)" })
                return questions.count
            }
            provider.askedContinuation.yield(count)
            switch provider.behaviour {
            case .allow: return [.string("allow"), .string(""), .string("")]
            case .deny(let reason): return [.string("deny"), .string(reason), .string("")]
            case .redirect(let batch): return [.string("redirect"), .string(""), .string(batch)]
            case .slow(let delay):
                // The slow provider under test, not a wait for an event.
                try await Task.sleep(for: delay)
                return [.string("allow"), .string(""), .string("")]
            case .gated:
                await provider.released()
                return [.string("allow"), .string(""), .string("")]
            case .current(let answer):
                let verdict = answer.verdict.withLock { $0 }
                return verdict == "allow"
                    ? [.string("allow"), .string(""), .string("")] : [.string("deny"), .string(verdict), .string("")]
            case .wrongSignature: return [.uint32(1)]
            case .unknownVerdict: return [.string("maybe"), .string(""), .string("")]
            case .random:
                let draw = provider.state.withLock { state -> UInt64 in
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    return state >> 33
                }
                switch draw % 7 {
                case 0: return [.string("allow"), .string(""), .string("")]
                case 1: return [.string("deny"), .string("random"), .string("")]
                case 2: return [.string("redirect"), .string(""), .string(#"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#)]
                case 3: return [.string("redirect"), .string(""), .string("[{")]
                case 4:
                    // Slow and past-deadline answers are the behaviour under test, not waits for an event.
                    try await Task.sleep(for: .milliseconds(100))
                    return [.string("allow"), .string(""), .string("")]
                case 5:
                    try await Task.sleep(for: .milliseconds(700))
                    return [.string("allow"), .string(""), .string("")]
                default: return [.string(String(repeating: "x", count: Int(draw % 64))), .string(""), .string("")]
                }
            }
        }
        try await bus.export(
            [try Interface("org.navsession.GuardProvider1", methods: [decide])],
            at: try ObjectPath("/org/navsession/GuardProvider1"))
        if register {
            _ = try await bus.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                interface: try InterfaceName(DaemonFixture.sessionInterface), member: try MemberName("RegisterGuard"),
                arguments: [.string("account")], timeout: .seconds(10))
        }
        return provider
    }

    var questionCount: Int { questions.withLock { $0.count } }

    func stop() async {
        release()
        askedContinuation.finish()
        await bus.close()
    }
}

/// Guard providers through the bus on the demo manifest (Docs/guards.md, "Guard providers").
@Suite struct GuardProviderBusTests {
    /// Opens and logs in the main window and selects the settings tab (its stack shows `settings`).
    func settingsWindow(_ fixture: DaemonFixture) async throws -> String {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
        return window
    }

    func pushProfile(_ fixture: DaemonFixture, _ window: String) async throws -> [Value] {
        try await fixture.window(window, "StackAppend", [.string("profile"), .noParams])
    }

    @Test func anAllowingProviderIsAskedAndTheChangeApplies() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let before = try await fixture.version(window)
            let reply = try await pushProfile(fixture, window)
            #expect(reply.first?.uint64 == before + 1)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
            let question = try #require(provider.questions.withLock { $0.first })
            #expect(question[0] == "account" && question[1] == window && question[2] == "\(before)")
            #expect(question[4].contains("\"screen\":\"profile\"") && question[5] == "[]", "\(question)")
            await provider.stop()
        }
    }

    @Test func aDeepLinkIsAskedLikeAnyOtherWayInAndAppliesWhenAllowed() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let reply = try await fixture.session("OpenURL", [.string("navsession-demo://settings/profile")])
            #expect(reply.first?.objectPath?.rawValue == window)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
            // Once about entering profile (later questions are about the back move, for CanGoBack).
            #expect(provider.questions.withLock { $0.filter { $0[4].contains("\"profile\"") }.count } == 1)
            await provider.stop()
        }
    }

    @Test func aDenyingProviderRefusesWithDeniedAndNothingChanges() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .deny("account locked"))
            let decisions = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "GuardDecided")
            let before = try await fixture.version(window)
            let error = await fixture.error { try await pushProfile(fixture, window) }
            #expect(error?.name.rawValue == "org.navsession.Error.Denied")
            #expect(error?.message.contains("account") == true && error?.message.contains("account locked") == true)
            #expect(try await fixture.version(window) == before)
            let signal = try #require(await decisions.first(within: Liveness.bound(.seconds(10))) { _ in true })
            #expect(signal.arguments.prefix(3).map(\.string) == ["account", "deny", "account locked"])
            await provider.stop()
        }
    }

    @Test func aRedirectingProviderHasItsBatchAppliedInstead() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(
                fixture, .redirect(#"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#))
            let before = try await fixture.version(window)
            let reply = try await pushProfile(fixture, window)
            #expect(reply.first?.uint64 == before + 1)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("about"))
            await provider.stop()
        }
    }

    @Test func aProviderPastItsDeadlineGetsTheGuardsOnTimeout() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await settingsWindow(fixture)
            // The provider would answer after a minute; the 500 ms deadline decides long before (a liveness
            // bound, not a latency one).
            let provider = try await TestGuardProvider.start(fixture, .slow(.seconds(60)))
            let before = try await fixture.version(window)
            let started = ContinuousClock.now
            let error = await fixture.error { try await pushProfile(fixture, window) }
            #expect(error?.name.rawValue == "org.navsession.Error.Denied", "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(try await fixture.version(window) == before)
            await provider.stop()
        }
    }

    @Test func withoutAProviderTheGuardsOnAbsentAllows() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let before = try await fixture.version(window)
            #expect(try await pushProfile(fixture, window).first?.uint64 == before + 1)
            let guards = try await fixture.session("ListGuards").first
            #expect(guards?.stringDictionaryValue == ["account": ""])
        }
    }

    @Test func theGuardsPropertyNamesTheProviderAndAnnouncesItsRegistrationAndDeparture() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let changes = try await fixture.signals(
                path: DaemonFixture.session, interface: .properties, member: "PropertiesChanged")
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let registered = try #require(await changes.first(within: Liveness.bound(.seconds(30))) { signal in
                signal.arguments.count >= 2 && signal.arguments[1].keyedEntries["Guards"] != nil
            })
            let name = try #require(registered.arguments[1].keyedEntries["Guards"]?.stringDictionaryValue?["account"])
            #expect(name.hasPrefix(":"))
            #expect(try await fixture.property(DaemonFixture.session, DaemonFixture.sessionInterface, "Guards")
                .stringDictionaryValue == ["account": name])
            await provider.stop()
            try await waitUntilUnregistered(fixture)
        }
    }

    @Test func garbageAnswersCountAsTimeouts() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            for behaviour in [TestGuardProvider.Behaviour.wrongSignature, .unknownVerdict] {
                let provider = try await TestGuardProvider.start(fixture, behaviour)
                let error = await fixture.error { try await pushProfile(fixture, window) }
                #expect(error?.name.rawValue == "org.navsession.Error.Denied", "\(behaviour)")
                await provider.stop()
                // The registration goes with the provider; wait until the daemon saw it leave.
                try await waitUntilUnregistered(fixture)
            }
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("settings"))
        }
    }

    @Test func aProviderLeavingMidQuestionCountsAsAbsent() async throws {
        // The 10 s deadline: the provider leaves while the question is open, however busy the machine.
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .slow(.seconds(60)))
            async let reply = pushProfile(fixture, window)
            try await provider.waitForQuestion()
            await provider.stop()
            // onAbsent is allow: the change applies once the provider is gone.
            #expect(try await reply.first?.uint64 != nil)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
            try await waitUntilUnregistered(fixture)
        }
    }

    @Test func aSecondProviderForTheSameGuardIsRefused() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let second = try await Bus.connect(.address(fixture.address))
            await #expect {
                _ = try await second.call(
                    destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                    interface: try InterfaceName(DaemonFixture.sessionInterface), member: try MemberName("RegisterGuard"),
                    arguments: [.string("account")], timeout: .seconds(10))
            } throws: { ($0 as? BusError)?.name.rawValue == "org.navsession.Error.GuardTaken" }
            await second.close()
            await provider.stop()
        }
    }

    @Test func readsAndOtherWindowsStayLiveWhileAProviderHangs() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let other = try #require(try await fixture.call(
                DaemonFixture.session, DaemonFixture.sessionInterface, "OpenWindow", [.string("waiting"), .noParams]
            ).first?.objectPath?.rawValue)
            let provider = try await TestGuardProvider.start(fixture, .gated)
            let before = try await fixture.version(window)
            let done = Mutex(false)
            let held = Task {
                defer { done.withLock { $0 = true } }
                return try await pushProfile(fixture, window)
            }
            try await provider.waitForQuestion()
            // The question stays open until the provider is released: reads of the window and another window's
            // change complete meanwhile, and the held change has not.
            let state = try await fixture.window(window, "GetState").first?.string
            #expect(state?.contains("\"profile\"") == false)
            _ = try await fixture.window(other, "Present", [.string("sheet"), .string("about"), .noParams])
            #expect(done.withLock { $0 } == false)
            provider.release()
            #expect(try await held.value.first?.uint64 == before + 1)
            await provider.stop()
        }
    }

    @Test func laterChangesAProviderDecidesWaitBehindTheQuestionInOrder() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .gated)
            let before = try await fixture.version(window)
            let first = Task { try await pushProfile(fixture, window) }
            try await provider.waitForQuestion()
            let secondDone = Mutex(false)
            let second = Task {
                defer { secondDone.withLock { $0 = true } }
                return try await pushProfile(fixture, window)
            }
            // A read on the same connection, answered once the daemon has dispatched what was sent before it.
            _ = try await fixture.window(window, "GetState")
            #expect(secondDone.withLock { $0 } == false, "a guarded change to the window overtook the question")
            provider.release()
            #expect(try await first.value.first?.uint64 == before + 1)
            #expect(try await second.value.first?.uint64 == before + 2)
            await provider.stop()
        }
    }

    /// A provider that hangs is asked once: the changes queued behind its question are decided by the guard's
    /// `onTimeout` as soon as that question times out, not one deadline each.
    @Test func changesQueuedBehindAHungProviderAreDecidedAfterOneDeadline() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .slow(.seconds(120)))
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        do {
                            _ = try await self.pushProfile(fixture, window)
                            return "applied"
                        } catch let error as BusError {
                            return error.name.rawValue + ": " + error.message
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.hasPrefix("org.navsession.Error.Denied") }, "\(results)")
            // Decided without asking the provider again (its first question timed out).
            let unasked = results.filter { $0.contains("not asked again yet") }.count
            #expect(unasked >= 10, "\(unasked) of 12 decided without asking: \(results)")
            await provider.stop()
        }
    }

    /// The demo with its `account` guard provided only by the owner of `org.navsession.TestAccounts`.
    static let declaredProvider = NavSessionTestDaemon.Configuration.Manifest.json(
        Manifest.demoJSON.replacingOccurrences(
            of: #""onAbsent": "allow", "onTimeout": "deny"}"#,
            with: #""onAbsent": "allow", "onTimeout": "deny", "provider": "org.navsession.TestAccounts"}"#))

    func registerAccount(_ bus: Bus) async throws {
        _ = try await bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
            interface: try InterfaceName(DaemonFixture.sessionInterface), member: try MemberName("RegisterGuard"),
            arguments: [.string("account")], timeout: .seconds(10))
    }

    @Test func aGuardWithADeclaredProviderRefusesAnyOtherClient() async throws {
        try await DaemonFixture.with(manifest: Self.declaredProvider) { fixture in
            let squatter = try await fixture.connect()
            let error = await fixture.error { try await self.registerAccount(squatter); return [] }
            #expect(error?.name.rawValue == "org.freedesktop.DBus.Error.AccessDenied", "\(String(describing: error))")
            #expect(error?.message.contains("org.navsession.TestAccounts") == true)
            #expect(try await fixture.session("ListGuards").first?.stringDictionaryValue == ["account": ""])
            await squatter.close()
        }
    }

    @Test func theOwnerOfTheDeclaredProviderNameRegisters() async throws {
        try await DaemonFixture.with(manifest: Self.declaredProvider) { fixture in
            let owner = try await fixture.connect()
            _ = try await owner.requestName(try BusName("org.navsession.TestAccounts"))
            // The daemon learns the new owner from NameOwnerChanged: a call after the name's is handled after it.
            _ = try await fixture.session("ListGuards")
            try await registerAccount(owner)
            let unique = try #require(await owner.uniqueName?.rawValue)
            #expect(try await fixture.session("ListGuards").first?.stringDictionaryValue == ["account": unique])
            await owner.close()
        }
    }

    /// One process may have 16 changes held for providers at once, over all windows and connections (its question
    /// share): 24 guarded pushes from two connections of this process, while the provider holds its first answer.
    @Test func oneProcessHasAtMostSixteenChangesHeldForProviders() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let windows = [try await settingsWindow(fixture)]
            let other = try await fixture.connect()
            // Its first change, before a provider registers: the daemon learns its process (this test's) on it.
            _ = try await other.call(
                destination: BusName(DaemonFixture.name), path: ObjectPath(windows[0]),
                interface: InterfaceName(DaemonFixture.windowInterface), member: MemberName("SetTitle"),
                arguments: [.uint64(0), .string("first")], timeout: .seconds(30))
            let provider = try await TestGuardProvider.start(fixture, .gated)
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        do {
                            // Long deadlines: once released, the held changes are asked again one by one.
                            _ = try await (index % 2 == 0 ? fixture.bus : other).call(
                                    destination: BusName(DaemonFixture.name), path: ObjectPath(windows[0]),
                                    interface: InterfaceName(DaemonFixture.windowInterface), member: MemberName("StackAppend"),
                                    arguments: [.string("profile"), .noParams], timeout: .seconds(120))
                            return "applied"
                        } catch let error as BusError {
                            if error.message.contains("per-client question share") { provider.release() }
                            return error.message.contains("per-client question share") ? "share" : error.name.rawValue
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(results.filter { $0 == "share" }.count >= 1, "\(results)")
            #expect(!results.contains("org.freedesktop.DBus.Error.Failed"), "\(results)")
            await other.close()
            await provider.stop()
        }
    }

    @Test func aChangeNoProviderDecidesIsNotHeldBehindAQuestion() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .gated)
            let before = try await fixture.version(window)
            let first = Task { try await pushProfile(fixture, window) }
            try await provider.waitForQuestion()
            // `about` is no guarded screen: it applies while the question is open.
            let second = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            #expect(second.first?.uint64 == before + 1)
            provider.release()
            // The held change runs on the window as it now is (asked again: the window moved).
            #expect(try await first.value.first?.uint64 == before + 2)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
            await provider.stop()
        }
    }

    @Test func aMisbehavingProviderCostsNoReplyNoFailedAndLeavesNoStuckQueue() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await settingsWindow(fixture)
            let seed = UInt64.random(in: 1...UInt64.max)
            let provider = try await TestGuardProvider.start(fixture, .random(seed: seed))
            let calls: [(String, [Value])] = [
                ("StackAppend", [.string("profile"), .noParams]), ("StackDropLast", [.uint32(1)]), ("GoBack", []),
                ("StackAppend", [.string("about"), .noParams]), ("GetState", []), ("GoBackToRoot", []),
            ]
            var failures: [String] = []
            try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<60 {
                    let (member, arguments) = calls[(index &* 7 &+ Int(seed % 5)) % calls.count]
                    group.addTask {
                        do {
                            _ = try await fixture.window(window, member, arguments)
                        } catch let error as BusError {
                            if error.name == .failed || error.name == .noReply { return "\(member): \(error)" }
                        }
                        return nil
                    }
                    if index % 6 == 5 {
                        for try await failure in group { if let failure { failures.append(failure) } }
                    }
                }
                for try await failure in group { if let failure { failures.append(failure) } }
            }
            #expect(failures.isEmpty, "seed \(seed): \(failures)")
            #expect(provider.questionCount > 0)
            await provider.stop()
            try await waitUntilUnregistered(fixture)
            // No stuck queue: the window takes changes again at once.
            _ = try await fixture.window(window, "GoBackToRoot")
            _ = try await pushProfile(fixture, window)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
        }
    }

    /// Waits until the daemon forgot the provider that left: subscribed to Session1 `PropertiesChanged` first, then
    /// the property read once (it may have gone already), then the signal that says `Guards` has no provider.
    func waitUntilUnregistered(_ fixture: DaemonFixture) async throws {
        let changes = try await fixture.signals(
            path: DaemonFixture.session, interface: .properties, member: "PropertiesChanged")
        if try await fixture.property(DaemonFixture.session, DaemonFixture.sessionInterface, "Guards").stringDictionaryValue
            == ["account": ""]
        {
            return
        }
        let signal = await changes.first(within: Liveness.bound(.seconds(30))) { signal in
            signal.arguments.count >= 2 && signal.arguments[1].keyedEntries["Guards"]?.stringDictionaryValue
                == ["account": ""]
        }
        #expect(signal != nil, "the registration did not go with its provider")
    }
}

extension Value {
    /// An `a{ss}` as a dictionary.
    var stringDictionaryValue: [String: String]? {
        guard case .dictionary(_, _, let entries) = self else { return nil }
        var result: [String: String] = [:]
        for entry in entries {
            guard let key = entry.key.string, let value = entry.value.string else { return nil }
            result[key] = value
        }
        return result
    }
}

/// A change refused by a mark takes the guarded path while a provider is registered: what it did in the change's
/// place is announced like on the plain path.
extension GuardProviderBusTests {
    /// Another client's `GoBackToRoot` over the fixture's protected editor (its mark names the dialog `discardChanges`)
    /// is `Prevented`; the window sends `Prevented` and the `Changed` that presents the dialog, whose version the
    /// window has.
    @Test func aMarksRefusalAndItsDialogAreAnnouncedWhileAProviderIsRegistered() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("editor"), .params(["id": "1"])])
            let editor = try await fixture.modelID(window, where: "screen", is: "editor")
            _ = try await fixture.window(window, "Protect", [.uint64(editor), .string("unsaved"), .string("discardChanges")])
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let interface = try InterfaceName(DaemonFixture.windowInterface)
            let prevented = try await fixture.signals(path: window, interface: interface, member: "Prevented")
            let changes = try await fixture.signals(path: window, interface: interface, member: "Changed")
            let before = try await fixture.version(window)
            let refused = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.GoBackToRoot"])
            #expect(refused.status != 0 && refused.stderr.contains("org.navsession.Error.Prevented"), "\(refused)")
            let signal = await prevented.first(within: Liveness.bound(.seconds(30))) { _ in true }
            #expect(signal?.arguments.first == .uint64(editor))
            let presented = await changes.first(within: Liveness.bound(.seconds(30))) { $0.arguments.first?.uint64 == before + 1 }
            #expect(presented?.arguments[2].string?.contains("\"present\"") == true, "\(String(describing: presented))")
            #expect(try await fixture.version(window) == before + 1)
            await provider.stop()
        }
    }
}

/// While a provider is registered, a change runs on the guarded path; it is still charged to its caller's process.
extension GuardProviderBusTests {
    /// One process (a Python script) marks 128 models from one connection, then a new connection of the same
    /// process sends 12 `Protect`s at once, before the bus has told the daemon whose connection it is: none is
    /// applied (the process's mark share is 128), and the process holds 128 marks.
    @Test func aNewConnectionsFirstChangesOnTheGuardedPathChargeItsProcess() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let models = (0..<140).map { #"{"screen":"detail","params":{"id":"\#($0)"}}"# }.joined(separator: ",")
            _ = try await fixture.window(window, "Apply", [.string(#"[{"command":"stackAppend","models":[\#(models)]}]"#), .noParams])
            let ids = try await fixture.models(window).filter { ($0["screen"] as? String) == "detail" }
                .compactMap { ($0["id"] as? NSNumber)?.uint64Value }
            #expect(ids.count == 140)
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let script = #"""
                import sys
                from gi.repository import Gio, GLib
                address, path = sys.argv[1], sys.argv[2]
                ids = [int(i) for i in sys.argv[3:]]
                flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
                def protect(connection, model):
                    return connection.call_sync("org.navsession.Demo", path, "org.navsession.Window1", "Protect",
                        GLib.Variant("(tss)", (model, "draft", "")), None, Gio.DBusCallFlags.NONE, 60000, None)
                first = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
                for model in ids[:128]:
                    protect(first, model)
                second = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
                loop = GLib.MainLoop()
                results = []
                def done(connection, result, model):
                    try:
                        connection.call_finish(result)
                        results.append("ok")
                    except GLib.Error as error:
                        results.append(Gio.DBusError.get_remote_error(error) or str(error))
                    if len(results) == len(ids) - 128:
                        loop.quit()
                for model in ids[128:]:
                    second.call("org.navsession.Demo", path, "org.navsession.Window1", "Protect",
                        GLib.Variant("(tss)", (model, "draft", "")), None, Gio.DBusCallFlags.NONE, 60000, None, done, model)
                loop.run()
                import json
                marks = first.call_sync("org.navsession.Demo", path, "org.freedesktop.DBus.Properties", "Get",
                    GLib.Variant("(ss)", ("org.navsession.Window1", "Protected")), None, Gio.DBusCallFlags.NONE,
                    60000, None).unpack()[0]
                print(" ".join(sorted(set(results))), results.count("ok"), len(json.loads(marks)))
                """#
            let result = try await fixture.run(
                "/usr/bin/python3", ["-c", script, fixture.address, window] + ids.map(String.init),
                timeout: Liveness.bound(.seconds(120)))
            #expect(result.status == 0, "\(result)")
            // Refused, none applied, and the process holds its 128 marks (they go when the script leaves).
            #expect(result.stdout.hasPrefix("org.freedesktop.DBus.Error.LimitsExceeded 0 128"), "\(result)")
            await provider.stop()
        }
    }
}
