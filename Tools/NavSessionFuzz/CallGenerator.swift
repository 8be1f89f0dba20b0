import DBusKit
import DBusTestSupport

/// Chooses every call of a run from the seed: valid calls that build deep state, typed calls with adversarial
/// arguments, wrong signatures, property and standard-interface calls, unknown members, descriptors, and
/// clients that vanish. Keeps the session bounded by dismissing windows.
final class CallGenerator {
    /// Where a method lives: one fixed object, or any window.
    enum Place {
        case object(ObjectPath)
        case window
    }

    struct Target {
        var place: Place
        var interface: InterfaceDescription
        var method: InterfaceDescription.Method
    }

    struct Settings {
        var maximumMessageBytes: Int
        var maximumWindows: Int
        var vanishProbability: Double
        /// The share of calls whose body may take up to `maximumMessageBytes` (3 % more get 2 MiB, the rest 128 KiB).
        var hugeShare: Double
        /// `--misbehaving-provider`: the share of calls about guards (``guarded(_:)``); 0 without it.
        var guardShare: Double = 0
    }

    var random: SplitMix64
    private let targets: [Target]
    private let ownTargets: [Target]
    /// Interfaces by place, for Properties calls.
    private let interfaces: [(place: Place, interfaces: [InterfaceDescription])]
    private let fixedPaths: [ObjectPath]
    let model: SessionModel
    let factory: ArgumentFactory
    private let settings: Settings
    private var count = 0
    /// Set when the window list may have changed behind the model's back; the next call refreshes it.
    var refreshNeeded = true

    /// Relative weights of valid calls by member; anything unlisted weighs 1.
    static let validWeights: [String: Double] = [
        "StackAppend": 8, "Present": 5, "SwitchModel": 3, "SwitchModelWith": 2, "ClearSavedState": 1, "TabsSelectItem": 2, "OpenURL": 4, "OpenWindow": 2,
        "Dismiss": 4, "GetState": 6, "Apply": 4, "ExecuteAt": 3, "PresentAlert": 2, "PresentConfirmationDialog": 2, "PresentOn": 2,
        "ReportActionChosen": 2, "ReportPopped": 2, "ReportDismissed": 2, "ReportTabSelected": 2,
        "SelectChild": 1, "ReportChildSelected": 1, "SetColumnVisibility": 0.5, "ReportCollapsed": 0.5,
        "DismissWindow": 0.3, "ReportClosed": 0.1, "Activate": 0.5, "ActivateAction": 0.5, "Open": 0.5,
        "GetManagedObjects": 0.3, "Introspect": 0.3,
        "GetHistory": 0.5, "GetStateAt": 0.5, "ExportTrace": 0.1,  // history and traces
        "BeginBack": 2, "CommitBack": 2, "RunScheduled": 1, "RefreshGuard": 0.3,  // back gestures, schedules run early
        "Undo": 2, "Redo": 1.5, "UndoCloseWindow": 0.3,  // undo and redo
        "SetWindowPolicy": 0.5,  // window policies (the fuzzer is a host client: it may always manage them)
    ]

    init(seed: UInt64, objects: [ObjectDescription], model: SessionModel, factory: ArgumentFactory, settings: Settings) {
        random = SplitMix64(seed: seed)
        self.model = model
        self.factory = factory
        self.settings = settings
        var targets: [Target] = []
        var interfaces: [(Place, [InterfaceDescription])] = []
        var fixedPaths: [ObjectPath] = []
        var sawWindow = false
        for object in objects {
            let isWindow = object.path.rawValue.contains("/window/") && object.hasOwnInterfaces
            if isWindow && sawWindow { continue }
            sawWindow = sawWindow || isWindow
            let place: Place = isWindow ? .window : .object(object.path)
            if !isWindow { fixedPaths.append(object.path) }
            interfaces.append((place, object.interfaces))
            for interface in object.interfaces {
                for method in interface.methods { targets.append(Target(place: place, interface: interface, method: method)) }
            }
        }
        self.targets = targets
        self.ownTargets = targets.filter { !$0.interface.name.hasPrefix("org.freedesktop.DBus.") }
        self.interfaces = interfaces
        self.fixedPaths = fixedPaths
    }

    // MARK: Choosing calls

    /// The next call of the run.
    func next() -> FuzzCall {
        count += 1
        // Most calls are small; a few may be large, fewer huge (up to the message limit).
        let huge = min(max(settings.hugeShare, 0), 0.97)
        let bytes = [128 << 10, 2 << 20, settings.maximumMessageBytes][random.weighted([0.97 - huge, 0.03, huge])]
        var budget = SizeBudget(bytes: min(bytes, settings.maximumMessageBytes), descriptors: ValueGenerator.maximumDescriptors)
        budget.wantsLongString = bytes > 128 << 10
        var call: FuzzCall
        if let chore = housekeeping(&budget) {
            call = chore
        } else if settings.guardShare > 0, random.chance(settings.guardShare), let guarded = guarded() {
            call = guarded
        } else {
            switch random.weighted([30, 30, 8, 10, 4, 3, 4]) {
            case 0: call = valid(&budget)
            case 1: call = typed(&budget)
            case 2: call = wrongSignature(&budget)
            case 3: call = properties(&budget)
            case 4: call = standard(&budget)
            case 5: call = unknownMember(&budget)
            default: call = descriptors(&budget)
            }
            if random.chance(settings.vanishProbability) { call.vanishes = true }
            if random.chance(0.03) {
                call.interface = nil
                call.expectedOutputs = nil
            }
        }
        // ActivateAction("quit") is the documented way to stop the daemon, not a bug to find.
        if call.member.rawValue == "ActivateAction", call.arguments.first?.string == "quit" {
            call.arguments[0] = .string("quit-not")
        }
        return call
    }

    /// Keeps the session small and the model fresh: too many windows, an occasional dismissal, a refresh.
    private func housekeeping(_ budget: inout SizeBudget) -> FuzzCall? {
        if model.live.count > settings.maximumWindows || (count % 250 == 0 && !model.live.isEmpty) {
            let window = model.live[random.int(0...(model.live.count - 1))]
            if let target = ownTargets.first(where: { $0.method.name == "DismissWindow" }) {
                return call(target, path: pathFor(target, valid: true), arguments: [.objectPath(window)], origin: "housekeeping")
            }
        }
        if refreshNeeded || count % 50 == 0, let target = ownTargets.first(where: { $0.method.name == "ListWindows" }) {
            refreshNeeded = false
            return call(target, path: pathFor(target, valid: true), arguments: [], origin: "housekeeping")
        }
        if model.live.isEmpty, random.chance(0.5), let target = ownTargets.first(where: { $0.method.name == "OpenWindow" }) {
            return valid(target, &budget)
        }
        if let window = model.live.first(where: { model.facts[$0] == nil }), random.chance(0.5),
           let target = ownTargets.first(where: { $0.method.name == "GetState" }) {
            return call(target, path: window, arguments: [], origin: "housekeeping")
        }
        return nil
    }

    private func valid(_ budget: inout SizeBudget) -> FuzzCall {
        let weights = ownTargets.map { target -> Double in
            if case .window = target.place, model.live.isEmpty { return 0 }
            return Self.validWeights[target.method.name] ?? 1
        }
        guard !ownTargets.isEmpty, weights.contains(where: { $0 > 0 }) else { return typed(&budget) }
        return valid(ownTargets[random.weighted(weights)], &budget)
    }

    private func valid(_ target: Target, _ budget: inout SizeBudget) -> FuzzCall {
        let path = pathFor(target, valid: true)
        var scratch = scratchFor(target, path: path)
        let context = valueContext()
        let arguments = target.method.inputs.map { factory.valid($0, &random, &budget, &scratch, context) }
        return call(target, path: path, arguments: arguments, origin: "valid")
    }

    /// The declared signature, each argument adversarial with a per-call probability.
    private func typed(_ budget: inout SizeBudget) -> FuzzCall {
        let pool = random.chance(0.85) && !ownTargets.isEmpty ? ownTargets : targets
        guard !pool.isEmpty else { return standard(&budget) }
        let target = pool[random.int(0...(pool.count - 1))]
        let path = pathFor(target, valid: random.chance(0.8))
        var scratch = scratchFor(target, path: path)
        let context = valueContext()
        let share = random.pick([0.3, 0.6, 1.0], or: 1.0)
        let arguments = target.method.inputs.map { argument in
            random.chance(share)
                ? factory.adversarial(argument, &random, &budget, &scratch, context)
                : factory.valid(argument, &random, &budget, &scratch, context)
        }
        return call(target, path: path, arguments: arguments, origin: "typed")
    }

    /// A known method with arguments of the wrong types or count.
    private func wrongSignature(_ budget: inout SizeBudget) -> FuzzCall {
        guard !targets.isEmpty else { return standard(&budget) }
        let target = random.chance(0.8) && !ownTargets.isEmpty
            ? ownTargets[random.int(0...(ownTargets.count - 1))] : targets[random.int(0...(targets.count - 1))]
        var types = target.method.inputTypes
        switch random.int(0...5) {
        case 0 where !types.isEmpty: types.removeLast()
        case 1: types.append(factory.values.randomType(&random, depth: 0))
        case 2 where !types.isEmpty: types[random.int(0...(types.count - 1))] = factory.values.randomType(&random, depth: 0)
        case 3 where types.count >= 2: types.swapAt(0, types.count - 1)
        case 4: types = (0..<random.int(0...4)).map { _ in factory.values.randomType(&random, depth: 0) }
        default: types.append(.unixFD)
        }
        if types == target.method.inputTypes { types.append(.string) }
        let context = valueContext()
        let arguments = types.map { factory.values.make($0, &random, &budget, context) }
        return call(target, path: pathFor(target, valid: random.chance(0.9)), arguments: arguments, origin: "wrong-signature")
    }

    /// Properties.Get/GetAll/Set with right and wrong interface and property names and values.
    private func properties(_ budget: inout SizeBudget) -> FuzzCall {
        let properties = targets.filter { $0.interface.name == "org.freedesktop.DBus.Properties" }
        guard !properties.isEmpty else { return standard(&budget) }
        let target = properties[random.int(0...(properties.count - 1))]
        let path = pathFor(target, valid: random.chance(0.85))
        var scratch = scratchFor(target, path: path)
        let context = valueContext()
        var arguments: [Value] = []
        for argument in target.method.inputs {
            if argument.name == "value", argument.type == .variant {
                let property = scratch.interfaces.first { $0.name == scratch.interfaceName }?.properties
                    .first { Value.string($0.name) == arguments.last }
                let type = property.map { random.chance(0.6) ? $0.type : factory.values.randomType(&random, depth: 0) }
                    ?? factory.values.randomType(&random, depth: 0)
                arguments.append(.variant(factory.values.make(type, &random, &budget, context, depth: 1)))
            } else if random.chance(0.75) {
                arguments.append(factory.valid(argument, &random, &budget, &scratch, context))
            } else {
                let names = ["", "org.navsession.Session1", "org.navsession.Window1", "org.freedesktop.Application",
                             "org.freedesktop.DBus.Properties", "Version", "Windows", "Title", "version", "Nope"]
                arguments.append(
                    random.chance(0.6) ? .string(random.pick(names, or: ""))
                        : factory.adversarial(argument, &random, &budget, &scratch, context))
            }
        }
        return call(target, path: path, arguments: arguments, origin: "properties")
    }

    /// Introspect, Peer and ObjectManager methods on known and odd paths.
    private func standard(_ budget: inout SizeBudget) -> FuzzCall {
        let standard = targets.filter { $0.interface.name.hasPrefix("org.freedesktop.DBus.") && $0.interface.name != "org.freedesktop.DBus.Properties" }
        let context = valueContext()
        guard !standard.isEmpty else { return unknownMember(&budget) }
        let target = standard[random.int(0...(standard.count - 1))]
        let path = random.chance(0.5) ? pathFor(target, valid: true) : factory.values.path(&random, &budget, context)
        return call(target, path: path, arguments: [], origin: "standard")
    }

    /// A member the object does not have, or one of another interface, with random arguments.
    private func unknownMember(_ budget: inout SizeBudget) -> FuzzCall {
        let context = valueContext()
        let names = ["Quit", "Destroy", "Reset", "Exit", "Shutdown", "X", "_", "a" + String(repeating: "b", count: 250)]
            + targets.map(\.method.name)
        let member = (try? MemberName(random.pick(names, or: "X"))) ?? MemberName.fuzzFallback
        let interfaceNames = interfaces.flatMap { $0.interfaces.map(\.name) }
            + ["org.navsession.Session2", "org.navsession.Window", "org.freedesktop.DBus", "a.b"]
        let interface = try? InterfaceName(random.pick(interfaceNames, or: "a.b"))
        let types = (0..<random.int(0...3)).map { _ in factory.values.randomType(&random, depth: 0) }
        let arguments = types.map { factory.values.make($0, &random, &budget, context) }
        let path = random.chance(0.7) ? random.pick(fixedPaths + model.live, or: .root) : factory.values.path(&random, &budget, context)
        return FuzzCall(origin: "unknown-member", path: path, interface: interface, member: member, arguments: arguments)
    }

    /// A method with `a{sv}` or `av` arguments (org.freedesktop.Application) carrying file descriptors in
    /// variants, arrays and dictionaries.
    private func descriptors(_ budget: inout SizeBudget) -> FuzzCall {
        let candidates = ownTargets.filter { target in
            target.method.inputTypes.contains { $0 == .dictionary(key: .string, value: .variant) || $0 == .array(.variant) }
        }
        guard !candidates.isEmpty else { return wrongSignature(&budget) }
        let target = candidates[random.int(0...(candidates.count - 1))]
        let path = pathFor(target, valid: true)
        var scratch = scratchFor(target, path: path)
        let context = valueContext()
        let arguments = target.method.inputs.map { argument -> Value in
            switch argument.type {
            case .dictionary(.string, .variant):
                return .options((0..<random.int(1...4)).map { index in
                    ("fd\(index)", descriptorValue(&budget))
                })
            case .array(.variant):
                return .array(.variant, (0..<random.int(0...3)).map { _ in .variant(descriptorValue(&budget)) })
            default:
                return factory.valid(argument, &random, &budget, &scratch, context)
            }
        }
        return call(target, path: path, arguments: arguments, origin: "descriptors")
    }

    /// A descriptor alone, in an array, in a dictionary or in a structure.
    private func descriptorValue(_ budget: inout SizeBudget) -> Value {
        let fd = Value.unixFD(factory.values.descriptors.any(&random))
        budget.takeDescriptor()
        switch random.int(0...4) {
        case 0: return .array(.unixFD, [fd])
        case 1: return .dictionary(key: .string, value: .unixFD, [DictionaryEntry(.string("fd"), fd)])
        case 2: return .structure([.string("fd"), fd])
        case 3: return .variant(fd)
        default: return fd
        }
    }

    // MARK: Pieces

    private func call(_ target: Target, path: ObjectPath, arguments: [Value], origin: String) -> FuzzCall {
        let matches = arguments.map(\.type) == target.method.inputTypes
        return FuzzCall(
            origin: origin, path: path, interface: try? InterfaceName(target.interface.name),
            member: (try? MemberName(target.method.name)) ?? .fuzzFallback, arguments: arguments,
            expectedOutputs: matches ? target.method.outputTypes : nil)
    }

    private func pathFor(_ target: Target, valid: Bool) -> ObjectPath {
        switch target.place {
        case .object(let path):
            if valid || random.chance(0.5) { return path }
            return random.pick(fixedPaths + model.live, or: path)
        case .window:
            if valid, !model.live.isEmpty { return model.live[random.int(0...(model.live.count - 1))] }
            var budget = SizeBudget(bytes: 1 << 20, descriptors: 0)
            switch random.weighted([model.live.isEmpty ? 0 : 7, model.stale.isEmpty ? 0 : 1.5, 1.5]) {
            case 0: return model.live[random.int(0...(model.live.count - 1))]
            case 1: return model.stale[random.int(0...(model.stale.count - 1))]
            default: return factory.values.path(&random, &budget, valueContext())
            }
        }
    }

    private func scratchFor(_ target: Target, path: ObjectPath) -> ArgumentFactory.Scratch {
        var scratch = ArgumentFactory.Scratch(member: target.method.name)
        let window = path.rawValue.contains("/window/") ? path : model.live.first
        scratch.window = window
        scratch.facts = window.flatMap { model.facts[$0] } ?? WindowFacts()
        scratch.interfaces = interfaces.first { entry in
            switch (entry.place, target.place) {
            case (.window, .window): true
            case (.object(let a), .object(let b)): a == b
            default: false
            }
        }?.interfaces.filter { !$0.properties.isEmpty } ?? []
        if path.rawValue.contains("/window/"), let windowInterfaces = interfaces.first(where: { if case .window = $0.place { true } else { false } }) {
            scratch.interfaces = windowInterfaces.interfaces.filter { !$0.properties.isEmpty }
        }
        return scratch
    }

    private func valueContext() -> ValueGenerator.Context {
        ValueGenerator.Context(paths: model.live + model.stale + fixedPaths, words: factory.vocabulary.words)
    }
}

extension MemberName {
    /// A member name that always validates.
    static let fuzzFallback: MemberName = {
        guard let name = try? MemberName("Fuzz") else { preconditionFailure("'Fuzz' is a valid member name") }
        return name
    }()
}
