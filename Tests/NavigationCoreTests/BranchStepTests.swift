import PropertyBased
import Testing

@testable import NavigationCore

/// `branchStep(at:stackRoot:tab:)` reads what `model(_:)` copies.
struct BranchStepTests {
    /// The child a walk continues into, read from the copied state.
    static func expectedChild(of model: ModelState, stackRoot: Bool, tab: String?) -> ModelID? {
        switch model.content {
        case .screen, .alert, .confirmationDialog: nil
        case .stack(let path, _): stackRoot ? path.first?.model : path.last?.model
        case .tabs(let tabs, let selected): tabs.first { $0.id == (tab ?? selected) }?.model
        case .switched(let switched): switched == model.id ? nil : switched
        case .custom(_, let children, let selected): children.indices.contains(selected) ? children[selected] : children.last
        }
    }

    @Test func stepsAgreeWithTheCopiedStateOnRandomGraphs() async throws {
        await propertyCheck(count: 200, input: Gen.int(in: 0...100_000).array(of: 2...40)) { numbers in
            guard let window = try? GraphInvariantPropertyTests.base() else { return }
            for index in stride(from: 0, to: numbers.count - 1, by: 2) {
                _ = try? GraphInvariantPropertyTests.step(numbers[index], numbers[index + 1], in: window)(window)
            }
            for model in window.snapshot().models {
                for stackRoot in [false, true] {
                    for tab in [nil, "a", "b", "zz"] as [String?] {
                        let step = window.branchStep(at: model.id, stackRoot: stackRoot, tab: tab)
                        #expect(step == BranchStep(
                            kind: model.kind, presented: model.presented,
                            child: Self.expectedChild(of: model, stackRoot: stackRoot, tab: tab)))
                    }
                }
            }
        }
    }

    @Test func anUnknownModelHasNoStep() throws {
        let window = try GraphInvariantPropertyTests.base()
        let unknown = ModelID(rawValue: 999)
        #expect(window.branchStep(at: unknown) == nil)
    }
}
