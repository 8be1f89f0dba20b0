import Testing
import NavigationRouting

struct DeepLinkDeclarationTests {
    private let window = DeepLinkDestination(window: WindowTarget(scene: "main"))

    private func route(_ pattern: String, query: [QueryParameter] = [], destination: DeepLinkDestination? = nil)
        throws(DeepLinkDeclarationError) -> DeepLinkRoute
    {
        try DeepLinkRoute("r", pattern: pattern, query: query, destination: destination ?? window)
    }

    @Test func jsonDeclaresTheSameRouterAsSwift() throws {
        #expect(try DeepLinkRouter(json: RouterFixture.json) == RouterFixture.router())
    }

    @Test func patternParsesLiteralsAndTypedPlaceholders() throws {
        #expect(try route("tabs/:tab(enum:home|search)/item/:id(int)/:flag(bool)/:name").pattern.segments == [
            .literal("tabs"), .placeholder(name: "tab", type: .oneOf(["home", "search"])), .literal("item"),
            .placeholder(name: "id", type: .int), .placeholder(name: "flag", type: .bool),
            .placeholder(name: "name", type: .string),
        ])
    }

    @Test(arguments: [":1id", ":", ":id(int", ":i-d", ":id)"])
    func badPlaceholderSyntaxIsRejected(segment: String) {
        #expect {
            try route("a/" + segment)
        } throws: { error in
            guard case .invalidPlaceholder(route: "r", placeholder: segment, _) = error as? DeepLinkDeclarationError
            else { return false }
            return true
        }
    }

    @Test func duplicatePlaceholderNamesAreRejected() {
        #expect(throws: DeepLinkDeclarationError.duplicateParameter(route: "r", name: "id")) { try route(":id/:id(int)") }
    }

    @Test func placeholderAndQueryParameterMayNotShareAName() {
        #expect(throws: DeepLinkDeclarationError.duplicateParameter(route: "r", name: "id")) {
            try route(":id", query: [.optional("id")])
        }
    }

    @Test func unknownTypeIsRejected() {
        #expect(throws: DeepLinkDeclarationError.unknownType(route: "r", parameter: "id", type: "float")) {
            try route("a/:id(float)")
        }
    }

    @Test func emptyPatternSegmentIsRejected() {
        #expect(throws: DeepLinkDeclarationError.emptyPatternSegment(route: "r", pattern: "a//b")) { try route("a//b") }
    }

    @Test func templateReferencingAnUnknownParameterNamesTheKey() {
        let destination = DeepLinkDestination(
            window: WindowTarget(scene: "main"), push: [ScreenSpec("detail", params: ["id": "{itemID}"])])
        #expect(throws: DeepLinkDeclarationError.unknownTemplateParameter(
            route: "r", key: "destination.push[0].params.id", parameter: "itemID")) {
            try route("detail/:id", destination: destination)
        }
    }

    @Test(arguments: ["{id", "id}", "{}", "{a b}"])
    func malformedTemplatesAreRejected(template: String) {
        let destination = DeepLinkDestination(window: WindowTarget(scene: "main"), tab: template)
        #expect {
            try route(":id", destination: destination)
        } throws: { error in
            guard case .invalidTemplate(route: "r", key: "destination.tab", template: template, _) = error
                as? DeepLinkDeclarationError
            else { return false }
            return true
        }
    }

    @Test func doubledBracesAreLiteral() throws {
        let destination = DeepLinkDestination(window: WindowTarget(scene: "main"), tab: "{{x}}-{id}")
        let router = try DeepLinkRouter(schemes: ["s"], routes: [try route(":id", destination: destination)])
        #expect(try router.plan(for: "s://5").destination.tab == "{x}-5")
    }

    @Test func defaultMustFitItsType() {
        #expect(throws: DeepLinkDeclarationError.invalidDefault(route: "r", parameter: "n", value: "x", expected: "an integer")) {
            try route("a", query: [.optional("n", .int, default: "x")])
        }
    }

    @Test func pushesNeedANavigationPresentation() {
        let destination = DeepLinkDestination(
            window: WindowTarget(scene: "main"),
            present: [DeepLinkPresentation(.cover, root: ScreenSpec("a"), push: [ScreenSpec("b")])])
        #expect(throws: DeepLinkDeclarationError.pushWithoutNavigation(route: "r", key: "destination.present[0].push")) {
            try route("a", destination: destination)
        }
    }

    @Test func emptyScreenNameIsRejected() {
        let destination = DeepLinkDestination(window: WindowTarget(scene: "main"), push: [ScreenSpec("")])
        #expect(throws: DeepLinkDeclarationError.emptyName(route: "r", key: "destination.push[0].screen")) {
            try route("a", destination: destination)
        }
    }

    @Test func routerNeedsASchemeAndValidOnes() {
        #expect(throws: DeepLinkDeclarationError.noSchemes) { try DeepLinkRouter(schemes: [], routes: []) }
        #expect(throws: DeepLinkDeclarationError.invalidScheme("1app")) { try DeepLinkRouter(schemes: ["1app"], routes: []) }
    }

    @Test func routeNamesAreUnique() throws {
        let one = try route("a")
        #expect(throws: DeepLinkDeclarationError.duplicateRouteName("r")) {
            try DeepLinkRouter(schemes: ["s"], routes: [one, one])
        }
    }

    @Test func jsonUnknownQueryTypeIsRejected() {
        let json = #"{"schemes":["s"],"routes":[{"name":"r","pattern":"a","query":[{"name":"n","type":"float"}],"destination":{"window":{"scene":"m"}}}]}"#
        #expect(throws: DeepLinkDeclarationError.unknownType(route: "r", parameter: "n", type: "float")) {
            try DeepLinkRouter(json: json)
        }
    }

    @Test func jsonRequiredWithDefaultIsRejected() {
        let json = #"{"schemes":["s"],"routes":[{"name":"r","pattern":"a","query":[{"name":"n","required":true,"default":"1"}],"destination":{"window":{"scene":"m"}}}]}"#
        #expect(throws: DeepLinkDeclarationError.requiredWithDefault(route: "r", parameter: "n")) {
            try DeepLinkRouter(json: json)
        }
    }

    @Test func jsonMissingKeyNamesItsPath() {
        let json = #"{"schemes":["s"],"routes":[{"name":"r","pattern":"a","destination":{}}]}"#
        #expect(throws: DeepLinkDeclarationError.invalidJSON(detail: "missing key 'routes[0].destination.window'")) {
            try DeepLinkRouter(json: json)
        }
    }

    @Test func jsonWrongTypeNamesItsPath() {
        let json = #"{"schemes":["s"],"routes":[{"name":"r","pattern":7,"destination":{"window":{"scene":"m"}}}]}"#
        #expect(throws: DeepLinkDeclarationError.invalidJSON(detail: "'routes[0].pattern' must be a string")) {
            try DeepLinkRouter(json: json)
        }
    }

    @Test func textThatIsNotJSONIsRejected() {
        #expect(throws: DeepLinkDeclarationError.invalidJSON(detail: "not valid JSON")) { try DeepLinkRouter(json: "{") }
    }
}
