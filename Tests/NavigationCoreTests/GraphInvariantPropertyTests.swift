import PropertyBased
import Testing

@testable import NavigationCore

/// Random command sequences never break the graph invariants.
struct GraphInvariantPropertyTests {
    static let alert = PresentationSpec.alert(
        DialogContent(title: "a", actions: [DialogAction(id: "ok", title: "OK"), DialogAction(id: "pop", title: "Pop", commands: [.stackDropLast(1)])]))

    /// Maps two random numbers to a command (or report) and an optional executing model.
    static func step(_ op: Int, _ pick: Int, in window: NavigationWindow) -> (NavigationWindow) throws(NavigationError) -> ChangeEvent {
        let ids = window.snapshot().models.map(\.id) + [ModelID(rawValue: 999)]
        let target: ModelID? = pick % 3 == 0 ? nil : ids[pick % ids.count]
        let command: NavigationCommand
        let tag: String? = pick % 4 == 0 ? "t\(pick % 3)" : nil
        switch op % 21 {
        case 0, 1: command = .stackAppend([StackElementSpec(.screen("s\(pick % 5)", tag: tag))], singleTop: pick % 5 == 0)
        case 2: command = .stackDropLast(pick % 3)
        case 3: command = .stackDropToRoot
        case 4: command = .stackSetRoot(.screen("r"), clear: pick % 2 == 0)
        case 5: command = .present(.sheet(pick % 2 == 0 ? .stacked(.screen("p")) : .switched(.screen("q"))))
        case 6: command = .present(.fullScreenCover(.screen("c")))
        case 7: command = .present(alert)
        case 8: command = .present(.confirmationDialog(DialogContent(title: "d"), sourceID: "src"))
        case 9: command = .dismiss
        case 10: command = .dismissJustFromPresented
        case 11: command = .hide
        case 12: command = .tabsSelectItem(pick % 2 == 0 ? "a" : "zz")
        case 13:
            // Saved branches: keep what is left (under "stack" or "v"), bring it back, or clear it.
            let spec: ModelSpec = pick % 2 == 0 ? .stacked(.screen("w", tag: tag)) : .screen("v", tag: tag)
            switch pick % 7 {
            case 0, 1: command = .switchModel(spec)
            case 2, 3: command = .switchModel(spec, saveState: true)
            case 4: command = .switchModel(spec, saveState: true, restoreState: false)
            case 5: command = .clearSavedState(screen: "stack")
            default: command = .clearSavedState(screen: nil)
            }
        case 14:
            let path = window.model(target ?? window.activeModelID)?.path ?? []
            command = .stackSetPath(path.reversed().map { .existing(.id($0.model)) } + (pick % 2 == 0 ? [.spec(.screen("n"))] : []))
        case 16: command = .setParams(model: pick % 2 == 0 ? .tag("t\(pick % 3)") : nil, params: ["k": "\(pick % 4)"], merge: pick % 3 != 0)
        case 17: command = pick % 2 == 0 ? .bringToFront(.screen("s\(pick % 5)")) : .bringToFront(.model(.tag("t\(pick % 3)")))
        // Marks (the subtree mark counts stay exact; a change that would remove a marked model is refused).
        case 19: command = .protect(model: target.map { .id($0) }, reason: "r\(pick % 3)", owner: nil)
        case 20: command = .unprotect(model: target.map { .id($0) }, owner: nil)
        case 15:
            let id = target ?? window.activeModelID
            return { w throws(NavigationError) in try w.report(pick % 2 == 0 ? .dismissedInteractively(id) : .alertActionChosen(alert: id, action: pick % 4 == 1 ? "pop" : "ok")) }
        default:
            let id = target ?? window.activeModelID
            return { w throws(NavigationError) in try w.report(.poppedTo(stack: id, index: pick % 3)) }
        }
        return { w throws(NavigationError) in try w.execute(command, from: target) }
    }

    static func base() throws -> NavigationWindow {
        try NavigationWindow(
            root: .switched(
                .tabs([
                    TabSpec(id: "a", title: "A", model: .stack([.screen("a0"), .screen("a1")])),
                    TabSpec(id: "b", title: "B", model: .switched(.stacked(.screen("b0")))),
                ])))
    }

    @Test func randomCommandSequencesKeepTheGraphValid() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100_000).array(of: 2...60)) { numbers in
            guard let window = try? Self.base() else { return }
            var everSeen = Set(window.snapshot().models.map(\.id))
            var maxID = everSeen.max()?.rawValue ?? 0
            for index in stride(from: 0, to: numbers.count - 1, by: 2) {
                let before = window.snapshot()
                let action = Self.step(numbers[index], numbers[index + 1], in: window)
                do throws(NavigationError) {
                    let event = try action(window)
                    if event.isNoOp {
                        #expect(window.version == before.version && window.snapshot() == before, "a no-op changes nothing")
                    } else {
                        #expect(window.version == before.version + 1 && event.version == window.version)
                    }
                    for id in event.started {
                        #expect(id.rawValue > maxID && !everSeen.contains(id), "ids are never reused")
                        everSeen.insert(id)
                    }
                    maxID = max(maxID, event.started.map(\.rawValue).max() ?? 0)
                    #expect(event.finished.allSatisfy { !window.contains($0) })
                    #expect(Set(event.finished).count == event.finished.count)
                } catch {
                    #expect(window.snapshot() == before, "failed \(error) changed the graph")
                }
                let after = window.snapshot()
                #expect(throws: Never.self) {
                    _ = try WindowSnapshot(version: after.version, nextModelID: after.nextModelID, root: after.root, models: after.models)
                }
                #expect(window.verifyPresenterIndex())
                #expect(window.verifyTagIndex())
                #expect(after.nextModelID > maxID)
                #expect(window.canPresent(window.root?.id ?? 0))
            }
            let snapshot = window.snapshot()
            let restored = try? NavigationWindow(snapshot: snapshot)
            #expect(restored?.snapshot() == snapshot)
            #expect(restored?.verifyPresenterIndex() == true)
            #expect(restored?.verifyTagIndex() == true)
        }
    }

    @Test func theIndexedNearestPresenterMatchesTheBriefsDefinition() async throws {
        await propertyCheck(count: 200, input: Gen.int(in: 0...100_000).array(of: 2...40)) { numbers in
            guard let window = try? Self.base() else { return }
            for index in stride(from: 0, to: numbers.count - 1, by: 2) {
                _ = try? Self.step(numbers[index], numbers[index + 1], in: window)(window)
            }
            for model in window.snapshot().models {
                guard let node = window.nodes[model.id] else { continue }
                #expect(window.nearestPresenter(node)?.id == Self.naiveNearest(model.id, in: window))
            }
        }
    }

    /// The brief's §2 definition, literally, by scanning the subtree.
    static func naiveNearest(_ id: ModelID, in window: NavigationWindow) -> ModelID? {
        func subtree(_ id: ModelID) -> [ModelID] { [id] + window.children(of: id).flatMap(subtree) }
        func down(_ id: ModelID) -> ModelID? {
            let candidates = subtree(id).filter { window.canPresent($0) }
            if let holder = candidates.first(where: { window.model($0)?.presented != nil }), let presented = window.model(holder)?.presented {
                return down(presented)
            }
            return candidates.last
        }
        func up(_ id: ModelID) -> ModelID? {
            var current: ModelID? = id
            while let c = current, !window.canPresent(c) { current = window.parent(of: c) }
            guard var top = current else { return nil }
            while let presented = window.model(top)?.presented { top = presented }
            return top
        }
        return down(id) ?? up(id)
    }
}
