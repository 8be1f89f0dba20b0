import Foundation
import Testing

@testable import NavigationCore

/// Builds a window or records the error as a test failure.
func makeWindow(_ root: ModelSpec, kinds: Set<String> = []) throws -> NavigationWindow {
    try NavigationWindow(root: root, configuration: WindowConfiguration(customPresentationKinds: kinds))
}

/// Runs `body` and returns its typed error, or nil when it succeeded.
func navigationError(_ body: () throws(NavigationError) -> Void) -> NavigationError? {
    do throws(NavigationError) {
        try body()
        return nil
    } catch {
        return error
    }
}

/// Asserts that `body` fails with `expected` and leaves the window exactly as it was.
func expectRejected(
    _ window: NavigationWindow, _ expected: NavigationError, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(NavigationError) -> Void
) {
    let before = window.snapshot()
    let effects = window.pendingEffects
    let error = navigationError(body)
    #expect(error == expected, sourceLocation: sourceLocation)
    #expect(window.snapshot() == before, "a failed command changed the state", sourceLocation: sourceLocation)
    #expect(window.pendingEffects == effects, sourceLocation: sourceLocation)
    #expect(window.verifyPresenterIndex(), sourceLocation: sourceLocation)
    #expect(window.verifyTagIndex(), sourceLocation: sourceLocation)
}

/// The screens of a stack's path, in order.
func screens(of stack: ModelID, in window: NavigationWindow) -> [String] {
    (window.model(stack)?.path ?? []).compactMap { window.model($0.model)?.screen }
}

/// The id of the first model (pre-order) with this screen name.
func id(_ screen: String, in window: NavigationWindow) -> ModelID? {
    window.snapshot().models.first { $0.screen == screen }?.id
}

/// Encodes and decodes through JSON.
func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}

/// Compact, key-sorted JSON text.
func jsonText<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

let home = ModelSpec.screen("home")
let detail = ModelSpec.screen("detail")
