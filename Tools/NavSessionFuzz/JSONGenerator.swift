import Foundation
import DBusTestSupport

/// JSON for `Apply` (batches), `ExecuteAt` (one command) and `Plan` (routes): valid documents built from the
/// vocabulary, and adversarial ones: mutated, deeply nested, malformed, oversized.
struct JSONGenerator {
    /// JSON numbers past every range a command's integer accepts: 0, −1, 2^31, 2^53+1, 2^63−1, 2^64−1, 1e300, a
    /// fraction.
    static let extremeNumbers = [
        "0", "-1", "2147483648", "9007199254740993", "9223372036854775807", "18446744073709551615", "1e300", "0.5",
    ]
    enum Shape {
        case command, batch, routes
    }

    let vocabulary: Vocabulary
    let strings: StringGenerator
    let urls: URLGenerator

    /// Application tags the generated specs carry and the `"tag:…"` references name (a small pool, so references
    /// often hit a tagged model and new specs often collide with one: `DuplicateTag`).
    static let tags = ["inbox", "current", "t1"]

    /// A model reference: a known id, or `"tag:<tag>"`.
    func reference(_ random: inout SplitMix64, ids: [UInt64]) -> GeneratedJSON {
        if random.chance(0.6), let id = ids.randomElement(using: &random) { return .int(id) }
        return .string("tag:" + random.pick(Self.tags, or: "inbox"))
    }

    // MARK: Valid documents

    /// A batch of one to four commands, each sometimes with `from` and `animated`.
    func batch(_ random: inout SplitMix64, ids: [UInt64]) -> GeneratedJSON {
        var entries: [GeneratedJSON] = (0..<random.int(1...4)).map { _ in
            guard case .object(var members) = command(&random, ids: ids) else { return .null }
            if random.chance(0.2) { members.append(("from", reference(&random, ids: ids))) }
            if random.chance(0.2) { members.append(("animated", .bool(random.chance(0.5)))) }
            return .object(members)
        }
        // A transaction payload rides with some batches (twice, rarely: LimitsExceeded).
        if random.chance(0.1) { entries.append(transaction(&random)) }
        if random.chance(0.01) { entries.append(transaction(&random)) }
        return .array(entries)
    }

    /// `{"command":"transaction","payload":{…}}`.
    func transaction(_ random: inout SplitMix64) -> GeneratedJSON {
        .object([("command", .string("transaction")), ("payload", .object([("fuzz", .int(UInt64(random.int(0...99))))]))])
    }

    /// One command of Docs/state-schema.md, with declared screens, tabs and kinds.
    func command(_ random: inout SplitMix64, ids: [UInt64], depth: Int = 0) -> GeneratedJSON {
        func named(_ name: String, _ members: [(String, GeneratedJSON)] = []) -> GeneratedJSON {
            .object([("command", .string(name))] + members)
        }
        // One in ten from the declarations alone: every declared command, whether or not a case below knows it.
        if random.chance(0.1) { return declaredCommand(&random, ids: ids) }
        switch random.int(0...(depth < 2 ? 19 : 18)) {
        case 0, 1:
            let models: GeneratedJSON = .array((0..<random.int(1...3)).map { _ in screenSpec(&random) })
            return named("stackAppend", [("models", models)] + (random.chance(0.3) ? [("singleTop", .bool(true))] : []))
        case 2:
            // React Navigation's pop with a source: from a model of the window (its element and those below go).
            if random.chance(0.3) {
                // Counts at the extremes too: a count beyond the stack is clamped at its root, below 1 refused.
                let count: GeneratedJSON = random.chance(0.2)
                    ? .number(random.pick(["-1", "9223372036854775807", "18446744073709551615", "1e300"], or: "-1"))
                    : .int(random.int(0...3))
                return named("pop", [("count", count), ("from", reference(&random, ids: ids))])
            }
            return named("stackDropLast", [("count", .int(random.int(1...3)))])
        case 3: return named("stackDropToRoot")
        case 4: return named("stackSetRoot", [("model", screenSpec(&random)), ("clear", .bool(random.chance(0.5)))])
        case 5:
            let path = (0..<random.int(1...4)).map { _ in
                random.chance(0.2) ? .object([("existing", reference(&random, ids: ids))])
                    : screenSpec(&random)
            }
            return named("stackSetPath", [("path", .array(path))])
        case 6: return named("present", [("presentation", presentation(&random))])
        case 7:
            // Exact presentation (`on`, `replace`), presentation transitions, `show`, the browser.
            if random.chance(0.25) {
                let screen = random.pick(vocabulary.screens.filter { $0.required.isEmpty }.map(\.name), or: "home")
                return named("show", [("screen", .string(screen))] + (random.chance(0.3) ? [("transition", .string("fade"))] : []))
            }
            if random.chance(0.2) {
                let url = random.pick(["https://example.org/a?b=c", "http://localhost:8080/", "ftp://example.org", "https://"], or: "https://example.org")
                return named("present", [("presentation", .object([("kind", .string("browser")), ("url", .string(url))]))])
            }
            guard random.chance(0.5) else { return named("present", [("presentation", presentation(&random))]) }
            var members: [(String, GeneratedJSON)] = [("presentation", presentation(&random)), ("on", reference(&random, ids: ids))]
            if random.chance(0.5) { members.append(("replace", .bool(random.chance(0.7)))) }
            return named("present", members)
        case 8: return backCommand(&random, ids: ids)
        case 9: return named("tabsSelectItem", [("tab", .string(random.pick(vocabulary.tabs, or: "home")))])
        case 10:
            let screen = random.chance(0.7) ? random.pick(vocabulary.states, or: "main") : random.pick(vocabulary.screenNames, or: "home")
            guard random.chance(0.8) else { return named("switchModel", [("model", tabsSpec(&random))]) }
            var members: [(String, GeneratedJSON)] = [("model", .object([("screen", .string(screen))]))]
            if random.chance(0.3) { members.append(("saveState", .bool(random.chance(0.5)))) }
            if random.chance(0.3) { members.append(("restoreState", .bool(random.chance(0.5)))) }
            return named("switchModel", members)
        // A move to another window or a new one (alone in its batch to apply; beside others it is refused).
        case 11 where random.chance(0.15):
            var members: [(String, GeneratedJSON)] = [("toWindow", .number(random.chance(0.9) ? String(random.int(0...4)) : random.pick(Self.extremeNumbers, or: "0")))]
            if random.chance(0.7), !ids.isEmpty { members.append(("model", reference(&random, ids: ids))) }
            if random.chance(0.4) {
                let key = random.pick(["stack", "tabs", "presentOn"], or: "tabs")
                members.append(("placement", .object([(key, random.chance(0.7) && !ids.isEmpty ? reference(&random, ids: ids) : .int(1))])))
            }
            return named("moveModel", members)
        // A screen prepared ahead (a push of the same one later shows it under its id).
        case 11 where random.chance(0.2):
            let screen = random.pick(vocabulary.screens.filter { $0.required.isEmpty }.map(\.name), or: "home")
            return named("prepare", [("model", .object([("screen", .string(screen))]))])
        case 11: return named("openWindow", [("scene", .string(random.pick(vocabulary.scenes, or: "main"))), ("params", .object([]))])
        // A renderer state for the window (0) or a model, sometimes cleared.
        case 12 where random.chance(0.3):
            let model: GeneratedJSON = random.chance(0.4) || ids.isEmpty ? .int(0) : reference(&random, ids: ids)
            return named("setRendererState", [("model", model), ("state", rendererState(&random))])
        case 12: return named("openURL", [("url", .string(urls.valid(&random)))])
        // Appearance in place and the live tab-bar rule.
        case 13 where random.chance(0.5):
            guard random.chance(0.6) else {
                var members: [(String, GeneratedJSON)] = [("hiddenWhenNotRoot", .bool(random.chance(0.5)))]
                if random.chance(0.3), !ids.isEmpty { members.append(("stack", reference(&random, ids: ids))) }
                if random.chance(0.5) { members.append(("animated", .bool(random.chance(0.5)))) }
                return named("setTabBarRule", members)
            }
            var members: [(String, GeneratedJSON)] = [("appearance", appearance(&random))]
            if random.chance(0.5) { members.append(("model", reference(&random, ids: ids))) }
            if random.chance(0.3) { members.append(("merge", .bool(random.chance(0.5)))) }
            return named("setAppearance", members)
        case 13 where random.chance(0.4):
            // Scheduled batches (short delays, so some run while the fuzzer is still calling; ids
            // from a small pool, so cancellations hit and duplicates collide) and their cancellation.
            let id = random.pick(["toast", "s1", "s2"], or: "toast")
            guard random.chance(0.7) else { return named("cancelScheduled", [("id", .string(id))]) }
            var members: [(String, GeneratedJSON)] = [
                // Mostly short delays; sometimes the extremes every number from input must survive (Docs/reliability.md,
                // "Numbers from input"): refused precisely, never a trap.
                ("afterMs", .number(random.chance(0.9) ? String(random.int(0...50)) : random.pick(Self.extremeNumbers, or: "0"))),
                ("commands", .array([backCommand(&random, ids: ids)])),
            ]
            if random.chance(0.5) { members.append(("id", .string(id))) }
            if random.chance(0.3) { members.append(("overdue", .string(random.pick(["run", "drop"], or: "run")))) }
            return named("schedule", members)
        case 13 where random.chance(0.2):
            return named("goForward", [("count", .number(random.pick(Self.extremeNumbers, or: "1")))])
        case 13: return named("trigger", [("name", .string("fuzz")), ("payload", .string(String(random.int(0...99))))])
        case 14:
            let to: GeneratedJSON = random.chance(0.3) ? reference(&random, ids: ids)
                : .string(random.pick(["self", "presenter", "parent"], or: "self"))
            // "saved" runs the demo's handler on its `main` tabs.
            let name = random.chance(0.3) ? "saved" : "fuzz"
            return named("sendMessage", [("name", .string(name)), ("payload", .string("p")), ("to", to)])
        case 15:
            if random.chance(0.2) {
                return named("clearSavedState", random.chance(0.3) ? [] : [("screen", .string(random.pick(vocabulary.states, or: "main")))])
            }
            return named(random.chance(0.1) ? "dismissWindow" : "stackDropToRoot")
        case 16:
            var members: [(String, GeneratedJSON)] = [("routes", routes(&random))]
            if random.chance(0.2), !ids.isEmpty { members.append(("stack", reference(&random, ids: ids))) }
            return named("setRoutes", members)
        case 17:
            let screen = random.pick(vocabulary.screens, or: Vocabulary.Screen(name: "home", required: [], optional: []))
            let keys = screen.required + screen.optional
            var members: [(String, GeneratedJSON)] = [
                ("params", .object(keys.filter { _ in random.chance(0.5) }.map { ($0, .string(random.pick(["1", "7"], or: "1"))) }))
            ]
            if random.chance(0.5) { members.append(random.chance(0.5) ? ("model", reference(&random, ids: ids)) : ("tag", .string(random.pick(Self.tags, or: "inbox")))) }
            // React Navigation's pushParams: the same params, kept so goBack restores the earlier ones.
            if random.chance(0.25) { return named("pushParams", members) }
            if random.chance(0.3) { members.append(("title", .string("Fuzz"))) }
            if random.chance(0.3) { members.append(("merge", .bool(random.chance(0.5)))) }
            return named("setParams", members)
        case 18 where random.chance(0.15):
            // SelectChild by index, tag or model, on the nearest or a named container.
            var members: [(String, GeneratedJSON)] = []
            if random.chance(0.4) { members.append(("container", reference(&random, ids: ids))) }
            let child: GeneratedJSON = switch random.int(0...2) {
            case 0: .int(random.int(-1...3))
            case 1: .string("tag:" + random.pick(Self.tags, or: "inbox"))
            default: .object([("model", reference(&random, ids: ids))])
            }
            if random.chance(0.3) {
                let visibility = random.pick(["automatic", "all", "doubleColumn", "detailOnly"], or: "all")
                members.append(("visibility", GeneratedJSON.string(visibility)))
                return named("setColumnVisibility", members)
            }
            members.append(("child", child))
            return named("selectChild", members)
        case 18 where random.chance(0.3):
            // Random marks (Docs/guards.md): the fuzzer's connection owns them, so later changes meet `Prevented`.
            var members: [(String, GeneratedJSON)] = []
            if random.chance(0.7) { members.append(("model", reference(&random, ids: ids))) }
            guard random.chance(0.5) else { return named("unprotect", members) }
            members.append(("reason", .string("fuzz")))
            if random.chance(0.3) { members.append(("dialog", .string("discardChanges"))) }
            return named("protect", members)
        case 18:
            return named("bringToFront", random.chance(0.5) ? [("screen", .string(random.pick(vocabulary.screenNames, or: "home")))]
                : [("tag", .string(random.pick(Self.tags, or: "inbox")))])
        default:
            return named("sequence", [("commands", .array((0..<random.int(1...3)).map { _ in command(&random, ids: ids, depth: depth + 1) }))])
        }
    }

    /// An appearance object (Docs/state-schema.md): any subset of its keys.
    /// A renderer state object: empty (clears), small, or nested.
    func rendererState(_ random: inout SplitMix64) -> GeneratedJSON {
        switch random.int(0...2) {
        case 0: .object([])
        case 1: .object([("scroll", .int(random.int(0...2000))), ("draft", .string(random.pick(["", "Dear Ann,"], or: "")))])
        default: .object([("size", .array([.int(random.int(200...1600)), .int(random.int(200...1200))])), ("flag", .bool(random.chance(0.5)))])
        }
    }

    func appearance(_ random: inout SplitMix64) -> GeneratedJSON {
        var members: [(String, GeneratedJSON)] = []
        for key in ["backButton", "navigationBar", "tabBar"] where random.chance(0.5) { members.append((key, .bool(random.chance(0.5)))) }
        if random.chance(0.4) {
            members.append(("titleDisplayMode", .string(random.pick(["automatic", "inline", "large"], or: "inline"))))
        }
        return .object(members)
    }

    /// A command that goes back: `dismiss`/`goBack` (sometimes with a `result`), `goBackToRoot`, `dismissAll`,
    /// `goBackTo`, `popTo` (sometimes with params, merged or not), `dismissJustFromPresented`, `hide`; and
    /// `goForward` with or without a count (sometimes one below 1 or beyond the list: InvalidCount,
    /// NothingToGoForward).
    func backCommand(_ random: inout SplitMix64, ids: [UInt64]) -> GeneratedJSON {
        switch random.int(0...7) {
        case 7:
            var members: [(String, GeneratedJSON)] = [
                ("command", .string("popTo")), ("screen", .string(random.pick(vocabulary.screenNames, or: "home"))),
            ]
            if random.chance(0.4) { members.append(("params", .object([("id", .string(String(random.int(0...3))))]))) }
            if random.chance(0.3) { members.append(("merge", .bool(random.chance(0.5)))) }
            return .object(members)
        case 6:
            guard random.chance(0.5) else { return .object([("command", .string("goForward"))]) }
            return .object([("command", .string("goForward")), ("count", .number(String(random.int(0...3))))])
        case 0:
            let name = random.pick(["dismiss", "goBack"], or: "goBack")
            return .object([("command", .string(name)), ("result", resultValue(&random))])
        case 1: return goBackToCommand(&random, ids: ids)
        case 2: return .object([("command", .string(random.pick(["goBackToRoot", "dismissAll"], or: "dismissAll")))])
        default:
            let names = ["dismiss", "dismissJustFromPresented", "hide", "goBack"]
            return .object([("command", .string(random.pick(names, or: "goBack")))])
        }
    }

    /// A tab container of stacks with a tab policy (`reselect`, `backBehavior`).
    func tabsSpec(_ random: inout SplitMix64) -> GeneratedJSON {
        var tabs: [GeneratedJSON] = []
        for id in ["a", "b", "c"] {
            let root = screenSpec(&random)
            tabs.append(.object([
                ("id", .string(id)), ("title", .string(id)),
                ("model", .object([("kind", .string("stack")), ("path", .array([root]))])),
            ]))
        }
        let reselect = random.pick(["none", "popToRoot"], or: "popToRoot")
        let back = random.pick(["none", "history", "order", "firstTab", "initialRoute", "fullHistory"], or: "history")
        return .object([
            ("kind", .string("tabs")), ("tabs", .array(tabs)), ("reselect", .string(reselect)), ("backBehavior", .string(back)),
        ])
    }

    /// A `goBackTo` with one selector (sometimes none or two, which the daemon refuses).
    func goBackToCommand(_ random: inout SplitMix64, ids: [UInt64]) -> GeneratedJSON {
        var members: [(String, GeneratedJSON)] = [("command", .string("goBackTo"))]
        let count = random.chance(0.1) ? random.int(0...2) : 1
        for _ in 0..<count {
            switch random.int(0...3) {
            case 0:
                members.append(("screen", .string(random.pick(vocabulary.screenNames, or: "home"))))
                // The screen's value or a predicate on its params (sometimes both, which the daemon refuses).
                if random.chance(0.3) { members.append(("params", .object([("id", .string(String(random.int(0...3))))]))) }
                if random.chance(0.2) { members.append(("paramsContaining", .object([]))) }
            case 1: members.append(("model", ids.isEmpty ? .int(3) : reference(&random, ids: ids)))
            case 2: members.append(("tag", .string(random.pick(Self.tags, or: "inbox"))))
            default: members.append(("index", .int(random.int(0...4))))
            }
        }
        return .object(members)
    }

    /// A `result` value of `dismiss`/`goBack`: an object, a string or a number.
    func resultValue(_ random: inout SplitMix64) -> GeneratedJSON {
        let id = String(random.int(0...99))
        let ok = random.chance(0.5)
        switch random.int(0...2) {
        case 0: return GeneratedJSON.object([("id", GeneratedJSON.string(id)), ("ok", GeneratedJSON.bool(ok))])
        case 1: return GeneratedJSON.string("fuzz")
        default: return GeneratedJSON.number(id)
        }
    }

    /// A screen model spec with its required parameters (and sometimes optional ones).
    func screenSpec(_ random: inout SplitMix64) -> GeneratedJSON {
        let screen = random.pick(vocabulary.screens, or: Vocabulary.Screen(name: "home", required: [], optional: []))
        var members: [(String, GeneratedJSON)] = [("screen", .string(screen.name))]
        let params = screen.required + screen.optional.filter { _ in random.chance(0.3) }
        if !params.isEmpty {
            members.append(("params", .object(params.map { ($0, .string(random.pick(["1", "42", "true", "x"], or: "1"))) })))
        }
        if random.chance(0.1) { members.append(("title", .string("Fuzz"))) }
        if random.chance(0.15) { members.append(("tag", .string(random.pick(Self.tags, or: "inbox")))) }
        if random.chance(0.1) { members.append(("appearance", appearance(&random))) }
        return .object(members)
    }

    /// A presentation object: sheet, cover, custom kind, alert or confirmation dialog.
    func presentation(_ random: inout SplitMix64) -> GeneratedJSON {
        let model = random.chance(0.3)
            ? .object([("kind", .string("stack")), ("path", .array([screenSpec(&random)]))]) : screenSpec(&random)
        let actions: GeneratedJSON = .array([
            .object([("id", .string("ok")), ("title", .string("OK")), ("role", .string("cancel"))]),
            .object([("id", .string("drop")), ("title", .string("Drop")), ("commands", .array([.object([("command", .string("dismiss"))])]))]),
        ])
        let transition: [(String, GeneratedJSON)] =
            random.chance(0.3) ? [("transition", .string(random.pick(["slide", "fade", "zoom", "crossfade"], or: "slide")))] : []
        switch random.int(0...4) {
        case 0: return .object([("kind", .string("sheet")), ("detents", .array([.string("medium")])), ("model", model)] + transition)
        case 1: return .object([("kind", .string("fullScreenCover")), ("model", model)] + transition)
        case 2:
            return .object([("kind", .string("custom")), ("name", .string(random.pick(vocabulary.presentationKinds, or: "popover"))), ("model", model)])
        case 3: return .object([("kind", .string("alert")), ("title", .string("T")), ("actions", actions)])
        default:
            return .object([("kind", .string("confirmationDialog")), ("title", .string("T")), ("sourceID", .string("b")), ("actions", actions)])
        }
    }

    /// Routes for the step planner (`Plan`) and `SetRoutes`/`setRoutes`, with declared screens and their
    /// required params (sometimes optional ones); `style` forces every route after the first.
    func routes(_ random: inout SplitMix64, count: Int? = nil, style: String? = nil) -> GeneratedJSON {
        .array((0..<(count ?? random.int(0...4))).map { index in
            let screen = random.pick(vocabulary.screens, or: Vocabulary.Screen(name: "a", required: [], optional: []))
            var members: [(String, GeneratedJSON)] = [
                ("style", .string(index == 0 ? "push" : style ?? random.pick(["push", "sheet", "cover"], or: "push"))),
                ("screen", .string(screen.name)),
            ]
            let params = screen.required + screen.optional.filter { _ in random.chance(0.3) }
            if !params.isEmpty {
                members.append(("params", .object(params.map { ($0, .string(random.pick(["1", "42", "true", "x"], or: "1"))) })))
            }
            if random.chance(0.3) { members.append(("withNavigation", .bool(random.chance(0.5)))) }
            return .object(members)
        })
    }

    /// The valid document of a shape.
    func valid(_ shape: Shape, _ random: inout SplitMix64, ids: [UInt64]) -> GeneratedJSON {
        switch shape {
        case .command: command(&random, ids: ids)
        case .batch: batch(&random, ids: ids)
        case .routes: routes(&random)
        }
    }

    // MARK: Adversarial documents

    /// A document meant to be rejected or to stress the parser and the graph.
    func adversarial(_ shape: Shape, _ random: inout SplitMix64, budget: inout SizeBudget, ids: [UInt64]) -> String {
        let text: String
        switch random.weighted([1.5, 4, 1, 2, shape == .routes ? 2.5 : 0.6, 1, 0.3]) {
        case 0: text = valid(shape, &random, ids: ids).text
        case 1: text = mutate(valid(shape, &random, ids: ids), &random, &budget, ids: ids).text
        case 2: text = deep(shape, &random, &budget)
        case 3: text = malformed(valid(shape, &random, ids: ids).text, &random)
        case 4: text = large(shape, &random, ids: ids)
        case 5: text = random.pick(["", " ", "null", "[]", "{}", "[{}]", "1", "\"x\"", "[null]", "[[]]", "true", "[1,2]"], or: "")
        default: text = GeneratedJSON.string(strings.make(&random, budget: &budget, words: vocabulary.words)).text
        }
        return budget.take(SizeBudget.string(text.utf8.count)) ? text : "[]"
    }

    /// Replaces, drops, adds or repeats one node of `value`.
    func mutate(_ value: GeneratedJSON, _ random: inout SplitMix64, _ budget: inout SizeBudget, ids: [UInt64]) -> GeneratedJSON {
        let children = value.children
        if !children.isEmpty && random.chance(0.6) {
            let index = random.int(0...(children.count - 1))
            switch value {
            case .array(var elements):
                elements[index] = mutate(elements[index], &random, &budget, ids: ids)
                return .array(elements)
            case .object(var members):
                members[index].1 = mutate(members[index].1, &random, &budget, ids: ids)
                return .object(members)
            default: break
            }
        }
        switch (value, random.int(0...7)) {
        case (.object(var members), 0) where !members.isEmpty:
            members.remove(at: random.int(0...(members.count - 1)))
            return .object(members)
        case (.object(var members), 1):
            members.append((random.pick(["command", "from", "model", "count", "tab", "tag", "singleTop", "zzz", ""], or: "x"), replacement(&random, &budget, ids: ids)))
            return .object(members)
        case (.array(let elements), 2) where !elements.isEmpty:
            let count = random.length(upTo: 3000)
            return .array(Array(repeating: elements[0], count: count))
        case (.array, 3):
            return .array([])
        case (.string, 4):
            return .string(strings.make(&random, budget: &budget, words: vocabulary.words))
        default:
            return replacement(&random, &budget, ids: ids)
        }
    }

    /// Any JSON value, with numbers at and past every integer limit.
    private func replacement(_ random: inout SplitMix64, _ budget: inout SizeBudget, ids: [UInt64]) -> GeneratedJSON {
        let numbers = [
            "0", "-1", "1", "2", "1.5", "-0", "1e308", "1e999", "-1e999", "4294967296", "9223372036854775807",
            "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809", "0.0000001",
        ]
        switch random.int(0...7) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2, 3: return .number(random.pick(numbers, or: "0"))
        case 4: return ids.isEmpty ? .int(0) : .int(ids[random.int(0...(ids.count - 1))])
        case 5: return .string(strings.make(&random, budget: &budget, words: vocabulary.words))
        case 6: return .array([])
        default: return .object([])
        }
    }

    /// Nesting thousands of levels deep, written as text (never as a recursive tree).
    private func deep(_ shape: Shape, _ random: inout SplitMix64, _ budget: inout SizeBudget) -> String {
        let depth = random.length(upTo: 40_000) + 1
        let (open, leaf, close): (String, String, String)
        switch (shape, random.int(0...6)) {
        case (_, 0), (.routes, _): (open, leaf, close) = ("[", "", "]")
        case (_, 1): (open, leaf, close) = ("{\"a\":", "1", "}")
        case (_, 2): (open, leaf, close) = ("{\"command\":\"sequence\",\"commands\":[", "{\"command\":\"dismiss\"}", "]}")
        case (_, 3): (open, leaf, close) = ("{\"kind\":\"stack\",\"path\":[", "{\"screen\":\"home\"}", "]}")
        case (_, 4): (open, leaf, close) = ("{\"screen\":\"home\",\"presented\":{\"kind\":\"sheet\",\"model\":", "{\"screen\":\"home\"}", "}}")
        case (_, 5): (open, leaf, close) = ("{\"kind\":\"tabs\",\"tabs\":[{\"id\":\"t\",\"title\":\"T\",\"model\":", "{\"screen\":\"home\"}", "}]}")
        default: (open, leaf, close) = ("{\"kind\":\"switched\",\"model\":", "{\"screen\":\"home\"}", "}")
        }
        let levels = min(depth, max(budget.remaining - 1024, 0) / max(open.utf8.count + close.utf8.count, 1))
        let nested = String(repeating: open, count: levels) + leaf + String(repeating: close, count: levels)
        let isModel = open.hasPrefix("{\"kind\"") || open.hasPrefix("{\"screen\"")
        let command = isModel ? "{\"command\":\"stackAppend\",\"models\":[" + nested + "]}" : nested
        return shape == .batch && !open.hasPrefix("[") ? "[" + command + "]" : command
    }

    /// Text that is not JSON, or only nearly.
    private func malformed(_ text: String, _ random: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        let at = scalars.isEmpty ? 0 : random.int(0...(scalars.count - 1))
        switch random.int(0...11) {
        case 0: return String(String.UnicodeScalarView(scalars[..<at]))
        case 1:
            scalars.insert(random.pick([",", "]", "}", "\u{1}", "\\", "\"", ":", "\u{A0}"], or: ","), at: at)
            return String(String.UnicodeScalarView(scalars))
        case 2: return text + random.pick(["x", ",", "]", "}", " null", "\u{FEFF}"], or: "x")
        case 3: return "\u{FEFF}" + text
        case 4: return text.replacingOccurrences(of: "\"", with: "'")
        case 5: return "/* c */" + text
        case 6: return text.replacingOccurrences(of: "\"home\"", with: "\"h\\ud800me\"")
        case 7: return text.replacingOccurrences(of: "\"", with: "\"\\x41")
        case 8: return text.replacingOccurrences(of: ":1", with: ":01").replacingOccurrences(of: ":2", with: ":+2")
        case 9: return text.replacingOccurrences(of: "true", with: "NaN").replacingOccurrences(of: "1", with: "Infinity")
        case 10: return text.replacingOccurrences(of: "\"home\"", with: "\"ho\tme\"")
        default: return String(text.reversed())
        }
    }

    /// Many commands or routes: around the 1024-command batch limit, thousands of routes.
    private func large(_ shape: Shape, _ random: inout SplitMix64, ids: [UInt64]) -> String {
        switch shape {
        case .routes:
            // Long chains of presentations make the planner's output grow with the square of their length.
            let count = random.pick([100, 1000, 1024, 1100, 1200, 1500, 2000, 5000], or: 1000)
            let style = random.pick(["sheet", "cover", "push", ""], or: "")
            return routes(&random, count: count, style: style.isEmpty ? nil : style).text
        case .batch:
            let count = random.pick([1023, 1024, 1025, 2000, random.int(100...3000)], or: 1025)
            let element = random.chance(0.5) ? #"{"command":"stackDropToRoot"}"# : command(&random, ids: ids).text
            return "[" + Array(repeating: element, count: count).joined(separator: ",") + "]"
        case .command:
            let count = random.pick([1000, 1025, 5000], or: 1025)
            return #"{"command":"stackAppend","models":["# + Array(repeating: #"{"screen":"home"}"#, count: count).joined(separator: ",") + "]}"
        }
    }
}
