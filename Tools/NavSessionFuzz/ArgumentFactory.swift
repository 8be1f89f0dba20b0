import DBusKit
import DBusTestSupport

/// Arguments chosen by their introspected names (`screen`, `url`, `batch_json`, `model`, `platform_data`, …):
/// valid ones from the vocabulary and the session model, or adversarial ones aimed at what the argument
/// means. Arguments it does not know get random values of their type.
struct ArgumentFactory {
    let vocabulary: Vocabulary
    let strings: StringGenerator
    let urls: URLGenerator
    let json: JSONGenerator
    let values: ValueGenerator

    /// What earlier arguments of the same call chose, so later ones can match them.
    struct Scratch {
        var member: String
        var window: ObjectPath?
        var facts = WindowFacts()
        var screen: String?
        var kind: String?
        var stackDepth: Int?
        var tabIDs: [String] = []
        var actions: [String] = []
        var interfaceName: String?
        var interfaces: [InterfaceDescription] = []
    }

    static let presentKinds = ["sheet", "cover", "sheet+stack", "cover+stack"]
    static let junkKinds = [
        "", "+stack", "stack", "sheet+", "sheet+stack+stack", "SHEET", "fullScreenCover", "alert+stack", "custom",
        "confirmationDialog+stack", "popover+stack+stack", "sheet stack", "ſheet",
    ]
    static let junkActions = [
        "", ":", "::", ":::", "a", "a:", ":b", "a:b:c:d", "a:b:unknown", "a:b:CANCEL", "ok:OK:cancel", "a:b:destructive:",
        "\u{202E}:x", "ok:OK", "ok:OK",
    ]

    /// A valid value for `argument`.
    func valid(
        _ argument: InterfaceDescription.Argument, _ random: inout SplitMix64, _ budget: inout SizeBudget,
        _ scratch: inout Scratch, _ context: ValueGenerator.Context
    ) -> Value {
        let name = argument.name
        let member = scratch.member
        let value: Value? = switch (name, argument.type) {
        case ("scene", .string):
            .string(remember(random.pick(vocabulary.scenes, or: "main"), in: &scratch))
        case ("params", .dictionary(.string, .string)):
            params(for: scratch.screen, &random)
        case ("window", .objectPath):
            .objectPath(window(&random, scratch.window, context))
        // MoveModel's windows as numbers (mostly open ones, sometimes 0 = a new window, sometimes none) and placement.
        case ("window", .uint64), ("to_window", .uint64):
            .uint64(random.chance(0.9) ? windowNumber(&random, scratch.window, context) : random.chance(0.5) ? 0 : values.uint64(&random))
        case ("placement_json", .string):
            .string(random.pick(
                ["", "{}", #"{"scene":"waiting"}"#, #"{"tabs":\#(tabs(&random, &scratch).uint64 ?? 1)}"#,
                 #"{"stack":\#(stack(&random, &scratch).uint64 ?? 1),"position":1}"#, #"{"presentOn":\#(model(&random, &scratch))}"#,
                 #"{"stak":1}"#, #"{"position":9007199254740993}"#, "[1]"], or: ""))
        // RegisterRenderer / UnregisterRenderer: the roles (a primary is often taken: AccessDenied), capabilities, ids.
        case ("role", .string): .string(random.pick(["primary", "mirror", "assistive", "viewer"], or: "mirror"))
        case ("capabilities_json", .string):
            .string(random.pick(["", #"{"multiDismiss":true,"pushesInOne":true}"#, #"{"multiDismiss":false}"#, "[1]", #"{"multiDismis":1}"#,
                #"{"multiDismiss":1e300}"#, #"{"pushesInOne":-1}"#, #"{"multiDismiss":18446744073709551615}"#], or: ""))
        case ("renderer_id", .string): .string(random.pick(["r1", "r2", "r9", ""], or: "r1"))
        // GetStats: the formats, a few screens, and numbers at the extremes where names or a format belong.
        case ("query_json", .string):
            .string(random.pick(
                ["", "{}", #"{"format":"openmetrics"}"#, #"{"screens":["home","detail"]}"#, #"{"screens":[0]}"#,
                 #"{"screens":[-1]}"#, #"{"screens":[9223372036854775807]}"#, #"{"screens":[18446744073709551615]}"#,
                 #"{"format":1e300}"#, #"{"format":"xml"}"#, "[1]"], or: ""))
        // ReportWidthClass: the three classes, sometimes not one (InvalidArgs).
        case ("width_class", .string): .string(random.pick(["compact", "medium", "expanded", "wide"], or: "compact"))
        // GetAnnouncement: a language list as HTTP's Accept-Language, sometimes malformed.
        case ("accept_language", .string):
            .string(random.pick(["", "fr", "fr-CA,fr;q=0.9,en;q=0.5", "*", "de;q=0", ";;,q=", "xxx"], or: ""))
        // SetWindowPolicy: mostly one that lets the fuzzer (a host client) on, or none; sometimes a kiosk or another app's
        // window (its changes then AccessDenied until a later call lifts it), sometimes malformed (InvalidArgs).
        case ("policy_json", .string):
            .string(random.pick(
                ["", #"{"change":["*"]}"#, #"{"change":["host"]}"#, #"{"change":["self"]}"#, #"{"change":[]}"#,
                 #"{"change":["app:org.example.Remote"]}"#, #"{"chnage":[]}"#, #"{"change":["nope"]}"#,
                 #"{"change":[],"manage":[]}"#, "[1]", #"{"change":[0]}"#, #"{"change":[-1]}"#,
                 #"{"change":[9223372036854775807]}"#, #"{"change":[18446744073709551615]}"#, #"{"change":1e300}"#], or: ""))
        // CheckManifest / ReloadManifest: the daemon's own manifest (every window kept), or not one (InvalidManifest).
        case ("manifest_json", .string):
            .string(random.chance(0.7) ? vocabulary.manifestJSON : random.pick(["{", "{}", #"{"format":1,"id":"org.other.App"}"#], or: "{"))
        case ("url", .string): .string(urls.valid(&random))
        case ("uris", .array(.string)): .strings((0..<random.int(1...2)).map { _ in urls.valid(&random) })
        case ("batch_json", .string): .string(json.batch(&random, ids: scratch.facts.models).text)
        case ("command_json", .string): .string(json.command(&random, ids: scratch.facts.models).text)
        case ("from_routes", .string), ("to_routes", .string), ("routes_json", .string): .string(json.routes(&random).text)
        case ("screen", .string) where member == "BringToFront" && random.chance(0.5): .string("")
        case ("screen", .string): .string(screen(&random, &scratch))
        case ("tag", .string):
            .string(member == "BringToFront" && scratch.screen != nil ? "" : random.pick(JSONGenerator.tags, or: "inbox"))
        case ("replace", .boolean): .boolean(random.chance(0.3))
        case ("reason", .string): .string("fuzz")
        // Apply's transaction option, ReportSettled's version.
        case ("options", .dictionary(.string, .string)) where random.chance(0.2):
            .dictionary(key: .string, value: .string, [
                DictionaryEntry(.string("transaction"), .string(random.chance(0.9) ? #"{"fuzz":1}"# : "[1]")),
            ])
        case ("version", .uint64): .uint64(random.chance(0.95) ? UInt64(random.int(0...40)) : values.uint64(&random))
        // CommitBack's version (often the window's, so some gestures commit); RunScheduled's and CancelScheduled's
        // ids as the daemon gives them ("s1", "s2", …), or an id a `schedule` command named.
        case ("expected_version", .uint64): .uint64(random.chance(0.95) ? UInt64(random.int(0...40)) : values.uint64(&random))
        case ("id", .string) where member == "RunScheduled" || member == "CancelScheduled":
            .string(random.chance(0.8) ? "s\(random.int(1...8))" : strings.make(&random, budget: &budget, words: ["s1", "never"]))
        case ("after_ms", .uint64): .uint64(random.chance(0.8) ? UInt64(random.int(0...50)) : values.uint64(&random))
        case ("dialog", .string): .string(random.pick(["", "discardChanges"], or: ""))
        case ("screens", .array(.string)):
            .strings((0..<random.int(1...4)).map { _ in random.pick(vocabulary.screens.filter { $0.required.isEmpty }.map(\.name), or: "home") })
        case ("count", .uint32): .uint32(UInt32(random.int(1...3)))
        case ("kind", .string): .string(kind(&random, &scratch))
        case ("title", .string):
            .string(random.chance(0.4) ? random.pick(dialogNames(member == "PresentAlert" ? "alert" : "confirmationDialog"), or: "Fuzz") : "Fuzz")
        case ("message", .string): .string(random.pick(["", "Something happened."], or: ""))
        case ("actions", .array(.string)):
            .strings(random.chance(0.4) ? [] : Array(["ok:OK", "cancel:Cancel:cancel", "delete:Delete:destructive"].prefix(random.int(1...3))))
        case ("source_id", .string): .string(random.pick(["", "button1"], or: ""))
        case ("save_state", .string), ("restore_state", .string): .string(random.pick(["", "true", "false"], or: ""))
        case ("tab", .string): .string(random.pick(scratch.tabIDs.isEmpty ? vocabulary.tabs : scratch.tabIDs, or: "home"))
        case ("model", .uint64): .uint64(model(&random, &scratch))
        // SetAppearance's model as text ("" / an id / "tag:…") and its appearance object; part P:
        // PresentOn's model (the same text form), its transition and replace flag.
        case ("model", .string):
            .string(random.chance(0.4) ? "" : random.chance(0.5) ? String(model(&random, &scratch))
                : "tag:" + random.pick(JSONGenerator.tags, or: "inbox"))
        case ("appearance_json", .string): .string(json.appearance(&random).text)
        // SetRendererState's object (its model is the "model" t of every method).
        case ("state_json", .string): .string(random.chance(0.1) ? "[1]" : json.rendererState(&random).text)
        case ("transition", .string): .string(random.pick(["", "slide", "fade", "zoom"], or: ""))
        case ("replace", .boolean): .boolean(random.chance(0.6))
        // SelectChild / ReportChildSelected (0 = the nearest custom container).
        case ("container", .uint64): .uint64(random.chance(0.5) ? 0 : model(&random, &scratch))
        case ("child", .uint64): .uint64(model(&random, &scratch))
        case ("split", .uint64): .uint64(random.chance(0.5) ? 0 : model(&random, &scratch))
        case ("visibility", .string): .string(random.pick(["automatic", "all", "doubleColumn", "detailOnly", "none"], or: "all"))
        case ("collapsed", .boolean): .boolean(random.chance(0.5))
        case ("stack", .uint64):
            stack(&random, &scratch)
        case ("index", .uint32): .uint32(UInt32(random.int(0...max((scratch.stackDepth ?? 1) - 1, 0))))
        case ("tabs", .uint64):
            tabs(&random, &scratch)
        case ("action", .string): .string(random.pick(scratch.actions, or: "ok"))
        case ("name", .string): .string(random.pick(["fuzz", "ping", "refresh"], or: "fuzz"))
        // GroupWindows and SaveSession: a few names (some refused) and open windows (sometimes none, or one twice).
        case ("group", .string): .string(random.pick(["work", "tools", "", "a/b"], or: "work"))
        case ("windows", .array(.objectPath)):
            .array(.objectPath, (0..<random.int(0...3)).map { _ in .objectPath(window(&random, scratch.window, context)) })
        case ("payload", .dictionary(.string, .string)):
            random.chance(0.5) ? .dictionary(key: .string, value: .string, [DictionaryEntry(.string("payload"), .string("x"))])
                : .dictionary(key: .string, value: .string, [DictionaryEntry(.string("a"), .string("1")), DictionaryEntry(.string("b"), .string("2"))])
        case ("platform_data", .dictionary(.string, .variant)):
            random.chance(0.5) ? .options([]) : .options([("desktop-startup-id", .string("fuzz_TIME0")), ("activation-token", .string("t"))])
        // The reopen-window action and ReopenWindow's closed-window id ("" = the most recent).
        case ("action_name", .string): .string(random.chance(0.7) ? "new-window" : "reopen-window")
        case ("id", .string) where member == "ReopenWindow": .string(random.chance(0.5) ? "" : String(random.int(1...12)))
        case ("parameter", .array(.variant)):
            random.chance(0.5) ? .array(.variant, []) : .array(.variant, [.variant(.string(random.pick(vocabulary.scenes, or: "main")))])
        case ("interface_name", .string):
            .string(remember(interface: random.pick(scratch.interfaces.map(\.name), or: ""), in: &scratch))
        case ("property_name", .string):
            .string(random.pick(scratch.interfaces.first { $0.name == scratch.interfaceName }?.properties.map(\.name) ?? [], or: "Version"))
        case ("enabled", .boolean), ("clear", .boolean), ("multi_dismiss", .boolean), ("pushes_in_one", .boolean):
            .boolean(random.chance(0.5))
        default: nil
        }
        return value ?? values.make(argument.type, &random, &budget, context)
    }

    /// An adversarial value for `argument`, aimed at what it means.
    func adversarial(
        _ argument: InterfaceDescription.Argument, _ random: inout SplitMix64, _ budget: inout SizeBudget,
        _ scratch: inout Scratch, _ context: ValueGenerator.Context
    ) -> Value {
        let words = vocabulary.words
        let value: Value? = switch (argument.name, argument.type) {
        case ("url", .string): .string(urls.adversarial(&random, budget: &budget))
        case ("uris", .array(.string)):
            .strings((0..<random.length(upTo: random.chance(0.05) ? 3000 : 8)).map { _ in urls.adversarial(&random, budget: &budget) })
        case ("batch_json", .string): .string(json.adversarial(.batch, &random, budget: &budget, ids: scratch.facts.models))
        case ("command_json", .string): .string(json.adversarial(.command, &random, budget: &budget, ids: scratch.facts.models))
        case ("from_routes", .string), ("to_routes", .string), ("routes_json", .string):
            .string(json.adversarial(.routes, &random, budget: &budget, ids: []))
        case ("screens", .array(.string)):
            .strings((0..<screenCount(&random)).map { _ in
                random.chance(0.7) ? random.pick(words, or: "home") : strings.make(&random, budget: &budget, words: words)
            })
        case ("kind", .string):
            .string(random.chance(0.5) ? random.pick(Self.junkKinds, or: "") : strings.make(&random, budget: &budget, words: Self.presentKinds + words))
        case ("actions", .array(.string)):
            .strings((0..<random.length(upTo: random.chance(0.05) ? 5000 : 6)).map { _ in
                random.chance(0.6) ? random.pick(Self.junkActions, or: "") : strings.make(&random, budget: &budget, words: Self.junkActions)
            })
        case ("params", .dictionary(.string, .string)), ("payload", .dictionary(.string, .string)):
            stringDictionary(&random, &budget, keys: vocabulary.screens.flatMap { $0.required + $0.optional } + ["payload", "sender"])
        case ("model", .uint64), ("stack", .uint64), ("tabs", .uint64), ("container", .uint64), ("child", .uint64), ("split", .uint64):
            .uint64(random.chance(0.3) ? model(&random, &scratch) : values.uint64(&random))
        case ("action_name", .string):
            .string(random.chance(0.3) ? random.pick(["new-window", "reopen-window"], or: "new-window")
                : strings.make(&random, budget: &budget, words: ["new-window", "reopen-window", "about", "preferences"]))
        case ("parameter", .array(.variant)) where random.chance(0.5):
            .array(.variant, [.variant(.string(strings.make(&random, budget: &budget, words: words)))])
        case (_, .string): .string(strings.make(&random, budget: &budget, words: words))
        default: nil
        }
        return value ?? values.make(argument.type, &random, &budget, context)
    }

    // MARK: Pieces

    private func remember(_ scene: String, in scratch: inout Scratch) -> String {
        if vocabulary.screen(named: scene) != nil { scratch.screen = scene }
        return scene
    }

    private func remember(interface: String, in scratch: inout Scratch) -> String {
        scratch.interfaceName = interface
        return interface
    }

    /// A declared screen (a state for SwitchModel, a dialog for alert kinds), remembered for `params`.
    private func screen(_ random: inout SplitMix64, _ scratch: inout Scratch) -> String {
        let name: String
        if scratch.kind == "alert" || scratch.kind == "confirmationDialog" {
            name = random.pick(dialogNames(scratch.kind ?? "alert"), or: "error")
        } else if ["SwitchModel", "SwitchModelWith", "ClearSavedState"].contains(scratch.member) && random.chance(0.7) {
            name = random.pick(vocabulary.states, or: "main")
        } else {
            name = random.pick(vocabulary.screenNames, or: "home")
        }
        scratch.screen = name
        return name
    }

    private func kind(_ random: inout SplitMix64, _ scratch: inout Scratch) -> String {
        let custom = vocabulary.presentationKinds.flatMap { [$0, $0 + "+stack"] }
        let kind = random.chance(0.1) ? random.pick(["alert", "confirmationDialog"], or: "alert")
            : random.pick(Self.presentKinds + custom, or: "sheet")
        scratch.kind = kind
        return kind
    }

    private func dialogNames(_ kind: String) -> [String] {
        vocabulary.dialogs.filter { $0.kind == kind }.map(\.name)
    }

    /// The screen's required parameters, and some optional ones.
    private func params(for screen: String?, _ random: inout SplitMix64) -> Value {
        guard let declaration = screen.flatMap(vocabulary.screen(named:)) else { return .dictionary(key: .string, value: .string, []) }
        let names = declaration.required + declaration.optional.filter { _ in random.chance(0.4) }
        return .dictionary(key: .string, value: .string, names.map { DictionaryEntry(.string($0), .string(random.pick(["1", "42", "true"], or: "1"))) })
    }

    private func window(_ random: inout SplitMix64, _ current: ObjectPath?, _ context: ValueGenerator.Context) -> ObjectPath {
        if let current, random.chance(0.7) { return current }
        return random.pick(context.paths.filter { $0.rawValue.contains("/window/") }, or: current ?? .root)
    }

    /// A window's number (the n of its path) of ``window(_:_:_:)``'s choice.
    private func windowNumber(_ random: inout SplitMix64, _ current: ObjectPath?, _ context: ValueGenerator.Context) -> UInt64 {
        UInt64(window(&random, current, context).rawValue.split(separator: "/").last.map(String.init) ?? "") ?? 1
    }

    /// A model id the method can use: presented models for ReportDismissed, dialogs for ReportActionChosen,
    /// 0 (the active model) sometimes where allowed, else any known id.
    private func model(_ random: inout SplitMix64, _ scratch: inout Scratch) -> UInt64 {
        let facts = scratch.facts
        switch scratch.member {
        case "ReportDismissed":
            return random.pick(facts.presented, or: random.pick(facts.models, or: 1))
        case "ReportActionChosen":
            guard !facts.dialogs.isEmpty else { return random.pick(facts.models, or: 1) }
            let dialog = facts.dialogs[random.int(0...(facts.dialogs.count - 1))]
            scratch.actions = dialog.actions
            return dialog.id
        case "ExecuteAt" where random.chance(0.4), "SendMessage" where random.chance(0.4):
            return 0
        default:
            return random.pick(facts.models, or: UInt64(random.int(1...8)))
        }
    }

    private func stack(_ random: inout SplitMix64, _ scratch: inout Scratch) -> Value {
        guard !scratch.facts.stacks.isEmpty else { return .uint64(UInt64(random.int(1...8))) }
        let stack = scratch.facts.stacks[random.int(0...(scratch.facts.stacks.count - 1))]
        scratch.stackDepth = stack.depth
        return .uint64(stack.id)
    }

    private func tabs(_ random: inout SplitMix64, _ scratch: inout Scratch) -> Value {
        guard !scratch.facts.tabs.isEmpty else { return .uint64(UInt64(random.int(1...8))) }
        let tabs = scratch.facts.tabs[random.int(0...(scratch.facts.tabs.count - 1))]
        scratch.tabIDs = tabs.tabIDs
        return .uint64(tabs.id)
    }

    /// Path lengths for StackSetPath: mostly short, sometimes hundreds or thousands.
    private func screenCount(_ random: inout SplitMix64) -> Int {
        switch random.weighted([6, 2, 1, 0.3]) {
        case 0: random.int(0...4)
        case 1: random.int(5...200)
        case 2: random.int(200...3000)
        default: random.int(3000...70_000)
        }
    }

    /// `a{ss}` with declared and junk keys, repeated keys, long values, sometimes thousands of entries.
    private func stringDictionary(_ random: inout SplitMix64, _ budget: inout SizeBudget, keys: [String]) -> Value {
        let count = random.chance(0.03) ? random.int(1000...70_000) : random.int(0...5)
        var entries: [DictionaryEntry] = []
        for _ in 0..<count {
            guard budget.take(SizeBudget.element) else { break }
            let key = random.chance(0.6) ? random.pick(keys, or: "id") : strings.make(&random, budget: &budget, words: keys)
            entries.append(DictionaryEntry(.string(key), .string(strings.make(&random, budget: &budget, words: ["1", "42", "true", "-1"]))))
        }
        return .dictionary(key: .string, value: .string, entries)
    }
}
