import Testing

@testable import NavigationCore

/// A screen's initial params (React Navigation's `initialParams`, Jetpack's argument defaults): every new model of
/// the screen gets them, merged under the params it was given.
struct InitialParamsTests {
    static func window() throws -> NavigationWindow {
        let catalog = ScreenCatalog([
            "home": .init(),
            "detail": .init(required: ["id"], optional: ["tab"], initialParams: ["tab": "info", "id": "0"]),
        ])
        return try NavigationWindow(root: .stack([.screen("home")]), configuration: WindowConfiguration(screens: catalog))
    }

    @Test func aPushWithoutAParamGetsItsDefaultMergedUnderTheGivenOnes() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("detail", params: ["id": "7"])))
        #expect(window.routes.last?.params == ["id": "7", "tab": "info"])
    }

    @Test func aRequiredParamWithADefaultMayBeLeftOut() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("detail")))
        #expect(window.routes.last?.params == ["id": "0", "tab": "info"])
    }

    @Test func theGivenParamsWin() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("detail", params: ["id": "1", "tab": "reviews"])))
        #expect(window.routes.last?.params == ["id": "1", "tab": "reviews"])
    }

    /// Defaults are for creation, as in React Navigation: replacing a live model's params does not bring them back.
    @Test func replacingParamsLaterDoesNotAddThemAgain() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("detail", params: ["id": "1"])))
        try window.execute(.setParams(model: nil, params: ["id": "2"], title: nil, merge: false))
        #expect(window.routes.last?.params == ["id": "2"])
    }

    @Test func everyWayAModelIsCreatedGetsThem() throws {
        let window = try Self.window()
        try window.execute(.present(.sheet(.screen("detail"))))
        try window.execute(.setRoutes([Route(style: .push, screen: "detail")], stack: nil))
        #expect(window.routes.map(\.params) == [["id": "0", "tab": "info"]])
    }
}
