import DBusKit

extension CallGenerator {
    /// A call about guards (`--misbehaving-provider`, Docs/fuzzing-dbus.md): entering and leaving the screens a
    /// guard covers (so the provider is asked), logging in and selecting tabs (so they can be entered), marks
    /// set and removed by the second connection, which sometimes leaves, and the provider unregistering,
    /// re-registering, or dropping its connection and coming back. Nil when no window is open.
    func guarded() -> FuzzCall? {
        guard !model.live.isEmpty else { return nil }
        let window = model.live[random.int(0...(model.live.count - 1))]
        let covered = factory.vocabulary.coveredScreens
        let screen = random.pick(covered, or: random.pick(factory.vocabulary.screenNames, or: "profile"))
        let noParams = Value.dictionary(key: .string, value: .string, [])
        let session = (try? ObjectPath("/org/navsession/Session1")) ?? .root
        let guardName = random.pick(factory.vocabulary.guards.map(\.name), or: "account")
        switch random.weighted([5, 3, 2, 2, 3, 3, 1.5, 0.4, 0.6, 0.3, 0.3]) {
        case 0:
            return make(window, "org.navsession.Window1", "StackAppend", [.string(screen), noParams], "t")
        case 1:
            let url = random.pick(factory.vocabulary.coveredURLs, or: "navsession-demo://settings/profile")
            return make(session, "org.navsession.Session1", "OpenURL", [.string(url)], "o")
        case 2:
            return make(window, "org.navsession.Window1", "SwitchModel",
                        [.string(random.pick(factory.vocabulary.states, or: "main")), noParams], "t")
        case 3:
            return make(window, "org.navsession.Window1", "TabsSelectItem",
                        [.string(random.pick(factory.vocabulary.tabs, or: "settings"))], "t")
        case 4:
            let member = random.pick(["GoBack", "StackDropLast", "Dismiss", "GoBackToRoot", "DismissAll", "GoForward"], or: "GoBack")
            return make(window, "org.navsession.Window1", member, member == "StackDropLast" ? [.uint32(1)] : [], "t")
        case 5:
            let dialog = random.pick(["", "", "discardChanges", "noSuchDialog"], or: "")
            var call = make(window, "org.navsession.Window1", "Protect", [.uint64(markedModel(in: window)), .string("fuzz mark"), .string(dialog)], "t")
            call.connection = .marks
            call.leavesAfter = random.chance(0.08)
            return call
        case 6:
            var call = make(window, "org.navsession.Window1", "Unprotect", [.uint64(markedModel(in: window))], "t")
            call.connection = random.chance(0.7) ? .marks : .main
            return call
        case 7:
            var call = make(session, "org.navsession.Session1", "UnregisterGuard", [.string(guardName)], "")
            call.connection = .provider
            return call
        case 8:
            var call = make(session, "org.navsession.Session1", "RegisterGuard", [.string(guardName)], "")
            call.connection = .provider
            return call
        case 9:
            var call = make(session, "org.navsession.Session1", "ListGuards", [], "a{ss}")
            call.connection = .provider
            call.leavesAfter = true
            return call
        default:
            // The main connection asks for the guards too (and sees the provider come and go).
            return make(session, "org.navsession.Session1", "ListGuards", [], "a{ss}")
        }
    }

    /// 0 (the active model) or a model known in `window`.
    private func markedModel(in window: ObjectPath) -> UInt64 {
        let models = model.models(in: window)
        return random.chance(0.5) || models.isEmpty ? 0 : models[random.int(0...(models.count - 1))]
    }

    private func make(_ path: ObjectPath, _ interface: String, _ member: String, _ arguments: [Value], _ outputs: String) -> FuzzCall {
        FuzzCall(
            origin: "guards", path: path, interface: try? InterfaceName(interface),
            member: (try? MemberName(member)) ?? .fuzzFallback, arguments: arguments,
            expectedOutputs: (try? Signature(outputs))?.types)
    }
}
