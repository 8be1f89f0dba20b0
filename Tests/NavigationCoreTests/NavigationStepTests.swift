import PropertyBased
import Testing

@testable import NavigationCore

/// A change's steps are the path the graph really took: applied in order to the state before, they give the
/// state after, and a model that stays is never popped or dismissed on the way.
struct NavigationStepTests {
    /// The structure steps describe: stack paths, filled slots, tab selections, switched models, the root.
    struct Structure: Equatable {
        var paths: [ModelID: [ModelID]] = [:]
        var slots: [ModelID: ModelID] = [:]
        var selected: [ModelID: String] = [:]
        var switched: [ModelID: ModelID] = [:]
        var root: ModelID

        init(_ snapshot: WindowSnapshot) {
            root = snapshot.root
            for model in snapshot.models {
                if let presented = model.presented { slots[model.id] = presented }
                switch model.content {
                case .stack(let path, _): paths[model.id] = path.map(\.model)
                case .tabs(_, let tab): selected[model.id] = tab
                case .switched(let child): switched[model.id] = child
                default: break
                }
            }
        }

        /// Applies one step, recording an issue when the step does not fit the state it is applied to.
        mutating func apply(_ step: NavigationStep) {
            switch step {
            case .push(let stack, let models, _): paths[stack, default: []] += models
            case .pop(let stack, let models, _):
                let path = paths[stack] ?? []
                #expect(Array(path.suffix(models.count).reversed()) == models, "\(step) on \(path)")
                paths[stack] = Array(path.dropLast(models.count))
            case .replacePath(let stack, let from, let to):
                #expect(paths[stack] ?? [] == from, "\(step)")
                paths[stack] = to
            case .present(let presenter, let model, _, let nested, _):
                #expect(slots[presenter] == nil, "\(step) on a filled slot")
                slots[presenter] = model
                for layer in nested { slots[layer.presenter] = layer.model }
            case .dismiss(let presenter, let model, let nested, _):
                #expect(slots[presenter] == model, "\(step)")
                slots[presenter] = nil
                for layer in nested { slots[layer.presenter] = nil }
            case .selectTab(let tabs, let tab, let previous):
                #expect(selected[tabs] == previous, "\(step)")
                selected[tabs] = tab
            case .switchContent(let container, let from, let to, _, _):
                #expect(switched[container] == from, "\(step)")
                switched[container] = to
            case .replaceRoot(let from, let to):
                #expect(root == from)
                root = to
            case .update, .appearance, .tabBarRule, .selectChild, .columnVisibility, .collapse, .expand, .rendererState:
                break
            }
        }

        /// The parts of `self` about containers that exist in `models`.
        func restricted(to models: Set<ModelID>) -> Structure {
            var result = self
            result.paths = paths.filter { models.contains($0.key) }
            result.slots = slots.filter { models.contains($0.key) }
            result.selected = selected.filter { models.contains($0.key) }
            result.switched = switched.filter { models.contains($0.key) }
            return result
        }
    }

    @Test func stepsAppliedToTheStateBeforeGiveTheStateAfter() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100_000).array(of: 2...60)) { numbers in
            guard let window = try? GraphInvariantPropertyTests.base() else { return }
            for index in stride(from: 0, to: numbers.count - 1, by: 2) {
                let before = window.snapshot()
                // The abilities follow the commands' own rules: exactly when a dry run would succeed.
                let abilities = window.abilities
                #expect(abilities.canPop == ((try? window.dryRun([BatchCommand(.stackDropLast(1))])) != nil))
                #expect(abilities.canDismiss == ((try? window.dryRun([BatchCommand(.dismiss)])) != nil))
                let action = GraphInvariantPropertyTests.step(numbers[index], numbers[index + 1], in: window)
                guard let event = try? action(window), !event.isNoOp else { continue }
                let after = window.snapshot()
                var structure = Structure(before)
                for step in event.steps { structure.apply(step) }
                let kept = Set(before.models.map(\.id)).intersection(after.models.map(\.id))
                #expect(structure.restricted(to: kept) == Structure(after).restricted(to: kept), "\(event.cause) → \(event.steps)")
                #expect(structure.root == after.root)
                let afterIDs = Set(after.models.map(\.id))
                for step in event.steps {
                    switch step {
                    case .pop(_, let models, _): #expect(models.allSatisfy { !afterIDs.contains($0) }, "\(step) pops a model that stays")
                    case .dismiss(_, let model, _, _): #expect(!afterIDs.contains(model), "\(step) dismisses a model that stays")
                    default: break
                    }
                }
            }
        }
    }

    static func window() throws -> NavigationWindow {
        try NavigationWindow(
            root: .tabs([
                TabSpec(id: "home", title: "Home", model: .stack([.screen("home")])),
                TabSpec(id: "settings", title: "Settings", model: .stack([.screen("settings")])),
            ]))
    }

    @Test func aPopUnderAnOpenSheetIsOnlyAPop() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("detail")))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))), from: window.rootID)
        guard case .tabs(let tabs, _) = window.model(window.rootID)?.content, let home = tabs.first?.model else {
            Issue.record("no tabs at the root"); return
        }
        let event = try window.execute(.stackDropToRoot, from: home)
        #expect(event.steps.count == 1)
        guard case .pop(home, let models, _) = event.steps.first else { Issue.record("\(event.steps)"); return }
        #expect(models.count == 1)
    }

    @Test func aTabSwitchUnderASheetIsOneTabStep() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("detail")))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))), from: window.rootID)
        let event = try window.execute(.tabsSelectItem("settings"), from: window.rootID)
        #expect(event.steps == [.selectTab(tabs: window.rootID, tab: "settings", previous: "home")])
    }

    @Test func layersAndPushesAreSplitForALimitedRenderer() {
        let a = ModelID(rawValue: 1), b = ModelID(rawValue: 2), c = ModelID(rawValue: 3)
        let nested = [NavigationStep.Presentation(presenter: b, model: c, style: .alert)]
        let steps: [NavigationStep] = [.dismiss(presenter: a, model: b, nested: nested), .push(stack: a, models: [b, c])]
        #expect(NavigationStep.shaped(steps, for: []) == [
            .dismiss(presenter: b, model: c, nested: []), .dismiss(presenter: a, model: b, nested: []),
            .push(stack: a, models: [b]), .push(stack: a, models: [c]),
        ])
        #expect(NavigationStep.shaped(steps, for: [.multiDismiss, .pushesInOne]) == steps)
    }

    @Test func stepsHaveTheDocumentedJSON() {
        let steps: [NavigationStep] = [
            .selectTab(tabs: 3, tab: "settings", previous: "home"), .push(stack: 7, models: [13]),
            .switchContent(container: 1, from: nil, to: 4),
        ]
        #expect(NavigationStep.json(steps) == #"[{"kind":"selectTab","tabs":3,"tab":"settings","previous":"home"},{"kind":"push","stack":7,"models":[13]},{"kind":"switch","container":1,"from":null,"to":4,"saved":false,"restored":false}]"#)
    }

    @Test func everyStepKindHasTheDocumentedJSON() {
        let nested = [NavigationStep.Presentation(presenter: 5, model: 6, style: .custom("pop\"over"))]
        let cases: [(NavigationStep, String)] = [
            (.push(stack: 7, models: [13, 14]), #"{"kind":"push","stack":7,"models":[13,14]}"#),
            (.pop(stack: 7, models: []), #"{"kind":"pop","stack":7,"models":[]}"#),
            (.replacePath(stack: 2, from: [3], to: [4, 5]), #"{"kind":"replacePath","stack":2,"from":[3],"to":[4,5]}"#),
            (.present(presenter: 1, model: 2, style: .sheet(detents: ["medium"]), nested: []), #"{"kind":"present","presenter":1,"model":2,"style":"sheet"}"#),
            (.present(presenter: 1, model: 2, style: .fullScreenCover, nested: nested),
             #"{"kind":"present","presenter":1,"model":2,"style":"fullScreenCover","nested":[{"presenter":5,"model":6,"style":"pop\"over"}]}"#),
            (.dismiss(presenter: 1, model: 2, nested: nested),
             #"{"kind":"dismiss","presenter":1,"model":2,"nested":[{"presenter":5,"model":6,"style":"pop\"over"}]}"#),
            (.selectTab(tabs: 3, tab: "ünï\n", previous: ""), #"{"kind":"selectTab","tabs":3,"tab":"ünï\n","previous":""}"#),
            (.switchContent(container: 1, from: 9, to: 4), #"{"kind":"switch","container":1,"from":9,"to":4,"saved":false,"restored":false}"#),
            (.switchContent(container: 1, from: 9, to: 4, saved: true, restored: true),
             #"{"kind":"switch","container":1,"from":9,"to":4,"saved":true,"restored":true}"#),
            (.replaceRoot(from: 1, to: 1_000_000_007), #"{"kind":"replaceRoot","from":1,"to":1000000007}"#),
        ]
        for (step, json) in cases {
            #expect(step.json == json)
            #expect(NavigationStep.json([step]) == "[" + json + "]")
        }
        #expect(NavigationStep.json([]) == "[]")
    }
}
