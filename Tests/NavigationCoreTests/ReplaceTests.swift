import Foundation
import Testing

@testable import NavigationCore

/// React Navigation's `replace(name, params)`: the top element of the executing model's stack finishes and a new
/// element showing the screen takes its place.
struct ReplaceTests {
    static func stack(_ screens: [ModelSpec]) throws -> NavigationWindow { try makeWindow(.stack(screens)) }
    static let home = ModelSpec.screen("home")

    @Test func theTopFinishesAndANewElementTakesItsPlace() throws {
        let window = try Self.stack([Self.home, .screen("detail", params: ["id": "1"])])
        let old = try #require(window.model(1)?.path?.last?.model)
        let event = try window.execute(.replace(screen: "detail", params: ["id": "2"]))
        #expect(screens(of: 1, in: window) == ["home", "detail"])
        #expect(window.routes.last?.params == ["id": "2"])
        #expect(window.model(1)?.path?.last?.model != old)
        #expect(event.finished == [old] && event.started.count == 1)
    }

    @Test func atTheRootTheRootIsReplaced() throws {
        let window = try Self.stack([Self.home])
        try window.execute(.replace(screen: "about"))
        #expect(screens(of: 1, in: window) == ["about"])
    }

    @Test func theNewElementCarriesTheTransitionGiven() throws {
        let window = try Self.stack([Self.home, .screen("a")])
        try window.execute(.replace(screen: "b", transition: "fade"))
        #expect(window.model(1)?.path?.last?.transition == "fade")
    }

    @Test func withoutAStackOrAScreenNameItFailsAndChangesNothing() throws {
        let window = try makeWindow(.screen("alone"))
        #expect(throws: NavigationError.self) { try window.execute(.replace(screen: "other")) }
        let stacked = try Self.stack([Self.home, .screen("detail")])
        #expect(throws: NavigationError.self) { try stacked.execute(.replace(screen: "")) }
        #expect(screens(of: 1, in: stacked) == ["home", "detail"])
    }

    /// It adds a route: what earlier backs put on the forward list is gone, as after a push.
    @Test func itClearsTheForwardList() throws {
        let window = try Self.stack([Self.home, .screen("a")])
        try window.execute(.stackDropLast)
        #expect(window.canGoForward)
        try window.execute(.replace(screen: "b"))
        #expect(!window.canGoForward)
    }

    @Test func itsJSONRoundTripsAndRefusesAnUnknownKey() throws {
        for json in [
            #"{"command":"replace","screen":"detail"}"#,
            #"{"command":"replace","screen":"detail","params":{"id":"1"},"transition":"fade"}"#,
        ] {
            let command = try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8))
            #expect(try JSONDecoder().decode(NavigationCommand.self, from: try JSONEncoder().encode(command)) == command, "\(json)")
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"replace","screen":"a","merge":true}"#.utf8))
        }
        #expect(NavigationCommand.replace(screen: "a").intent == .opens)
    }
}
