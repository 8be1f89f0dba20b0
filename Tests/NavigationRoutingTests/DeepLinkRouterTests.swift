import NavigationCore
import Testing
import NavigationRouting

struct DeepLinkRouterTests {
    let router: DeepLinkRouter

    init() throws {
        router = try RouterFixture.router()
    }

    private func params(_ url: String) throws -> [String: String] {
        try router.plan(for: url).destination.push.first?.params ?? [:]
    }

    @Test func resolvesAFullPlanWithSubstitutedParameters() throws {
        let plan = try router.plan(for: "myapp://tabs/search/item/42?source=mail&edit")
        #expect(plan == DeepLinkPlan(
            route: "item",
            parameters: ["tab": "search", "id": "42", "edit": "true", "source": "mail"],
            destination: DeepLinkDestination(
                window: WindowTarget(scene: "main"), tab: "search",
                push: [ScreenSpec("item", params: ["id": "42", "edit": "true"])],
                present: [
                    DeepLinkPresentation(
                        .sheet, withNavigation: true, root: ScreenSpec("compose", params: ["from": "mail"]),
                        push: [ScreenSpec("preview", params: ["item": "item-42"])]),
                ])))
    }

    @Test func planRoutesListPushesThenPresentations() throws {
        let plan = try router.plan(for: "myapp://tabs/home/item/1?source=x")
        #expect(plan.destination.routes == [
            .push("item", params: ["id": "1", "edit": "false"]),
            .sheet("compose", params: ["from": "x"], withNavigation: true),
            .push("preview", params: ["item": "item-1"]),
        ])
    }

    @Test func declaredOrderWinsWhenTwoRoutesMatch() throws {
        #expect(try router.plan(for: "myapp://detail/new").route == "new-detail")
        let reversed = try DeepLinkRouter(schemes: ["myapp"], routes: [
            try DeepLinkRoute("any", pattern: "detail/:id", destination: DeepLinkDestination(window: RouterFixture.main)),
            try DeepLinkRoute("new", pattern: "detail/new", destination: DeepLinkDestination(window: RouterFixture.main)),
        ])
        #expect(try reversed.plan(for: "myapp://detail/new").route == "any")
    }

    @Test func schemeIsCaseInsensitive() throws {
        #expect(try router.plan(for: "MYAPP://detail/7").route == "detail")
        #expect(try router.plan(for: "myapp-dev://detail/7").route == "detail")
    }

    @Test func hostIsCaseInsensitiveButPathIsNot() throws {
        #expect(try router.plan(for: "myapp://DETAIL/7").route == "detail")
        #expect(throws: DeepLinkError.unknownRoute(path: "detail/NEW/x")) { try router.plan(for: "myapp://detail/NEW/x") }
    }

    @Test(arguments: ["myapp://detail/7", "myapp:///detail/7", "myapp:detail/7", "myapp://detail/7/", "myapp://detail/7#top"])
    func hostAndPathFormsMatchTheSameRoute(url: String) throws {
        #expect(try params(url) == ["id": "7"])
    }

    @Test func emptyPatternMatchesTheBareScheme() throws {
        #expect(try router.plan(for: "myapp://").route == "home")
    }

    @Test func absentOptionalParameterLeavesItsEntryOut() throws {
        #expect(try params("myapp://detail/7") == ["id": "7"])
    }

    @Test func defaultIsUsedWhenAbsent() throws {
        #expect(try router.plan(for: "myapp://tabs/home/item/1?source=x").parameters["edit"] == "false")
    }

    @Test(arguments: ["?source=x&edit", "?source=x&edit=", "?edit=TRUE&source=x", "?edit=1&source=x"])
    func keyWithoutValueIsPresentAndReadsAsTrue(query: String) throws {
        #expect(try router.plan(for: "myapp://tabs/home/item/1" + query).parameters["edit"] == "true")
    }

    @Test func emptyValueIsPresentForAString() throws {
        #expect(try params("myapp://detail/7?ref") == ["id": "7", "ref": ""])
    }

    @Test func lastValueWinsForARepeatedKey() throws {
        #expect(try params("myapp://detail/7?ref=a&ref=b") == ["id": "7", "ref": "b"])
    }

    @Test func undeclaredQueryKeysAreIgnored() throws {
        #expect(try params("myapp://detail/7?utm_source=x&&") == ["id": "7"])
    }

    @Test func integersAreWrittenCanonically() throws {
        #expect(try params("myapp://detail/+007") == ["id": "7"])
    }

    @Test func newWindowCarriesSubstitutedParams() throws {
        let plan = try router.plan(for: "myapp://search?q=swift%20nav")
        #expect(plan.destination.window == WindowTarget(scene: "search", open: .new, params: ["query": "swift nav"]))
        #expect(plan.destination.reset == false)
    }

    // MARK: Percent-decoding

    @Test func encodedSlashStaysInsideItsSegment() throws {
        #expect(try params("myapp://note/a%2Fb")["title"] == "a/b")
    }

    @Test func multiByteEscapesDecodeAsUTF8() throws {
        #expect(try params("myapp://note/caf%C3%A9?q=%E2%9C%93")  == ["title": "café", "q": "✓"])
    }

    @Test func plusIsALiteralPlus() throws {
        #expect(try params("myapp://note/a+b?q=c+d") == ["title": "a+b", "q": "c+d"])
    }

    @Test func encodedAmpersandAndEqualsStayInTheValue() throws {
        #expect(try params("myapp://note/x?q=a%26b%3Dc")["q"] == "a&b=c")
    }

    // MARK: Errors

    @Test func wrongSchemeSaysWhichAreHandled() {
        #expect(throws: DeepLinkError.wrongScheme(scheme: "https", expected: ["myapp", "myapp-dev"])) {
            try router.plan(for: "https://detail/7")
        }
    }

    @Test func unknownRouteNamesThePath() {
        #expect(throws: DeepLinkError.unknownRoute(path: "nothing/here")) { try router.plan(for: "myapp://nothing/here") }
    }

    @Test func missingRequiredQueryParameter() {
        #expect(throws: DeepLinkError.missingParameter(route: "item", parameter: "source")) {
            try router.plan(for: "myapp://tabs/home/item/1")
        }
    }

    @Test(arguments: [
        ("myapp://detail/abc", DeepLinkError.badParameterValue(route: "detail", parameter: "id", value: "abc", expected: "an integer")),
        ("myapp://tabs/work/item/1?source=x",
         .badParameterValue(route: "item", parameter: "tab", value: "work", expected: "one of home, search")),
        ("myapp://tabs/home/item/1?source=x&edit=maybe",
         .badParameterValue(route: "item", parameter: "edit", value: "maybe", expected: "true or false")),
        ("myapp://detail/99999999999999999999",
         .badParameterValue(route: "detail", parameter: "id", value: "99999999999999999999", expected: "an integer")),
    ])
    func badValueSaysWhichValueAndType(url: String, error: DeepLinkError) {
        #expect(throws: error) { try router.plan(for: url) }
    }

    @Test(arguments: [
        "myapp://note/%zz", "myapp://note/abc%", "myapp://note/%C3", "myapp://note/x?q=%FF",
        "detail/7", "1app://detail/7", "myapp://note/a b", "myapp://note/café", "myapp://user@detail/7",
        "myapp://detail:80/7",
    ])
    func malformedURLsAreRejected(url: String) {
        #expect {
            try router.plan(for: url)
        } throws: { error in
            guard case .malformedURL = error as? DeepLinkError else { return false }
            return true
        }
    }

    @Test func invalidEscapeMessageNamesTheEscape() {
        #expect(throws: DeepLinkError.malformedURL(reason: "invalid percent escape '%zz' in path segment '%zz'")) {
            try router.plan(for: "myapp://note/%zz")
        }
    }

    @Test(arguments: [
        ("myapp://note/a b", "contains a space; percent-encode it"),
        ("myapp://note/café", "contains the character U+E9; percent-encode it"),
        ("1app://detail/7", "invalid scheme '1app'"),
        ("detail/7", "no scheme (expected e.g. myapp://…)"),
        ("myapp://user@detail/7", "user info and ports are not allowed in a deep link ('user@detail')"),
        ("myapp://note/x?q=%FF", "percent escapes in query item 'q=%FF' are not valid UTF-8"),
        ("myapp://note/x%00", "'%00' (a NUL byte) in path segment 'x%00'"),
        ("myapp://%4", "invalid percent escape '%4' in the host"),
    ])
    func malformedURLMessagesNameWhatAndWhere(url: String, reason: String) {
        #expect(throws: DeepLinkError.malformedURL(reason: reason)) { try router.plan(for: url) }
    }

    @Test func escapedNonASCIIHostIsLowercasedAfterDecoding() throws {
        // %C3%89 is É: the host is lowercased as text once decoded, not byte by byte.
        #expect(throws: DeepLinkError.unknownRoute(path: "é")) { try router.plan(for: "myapp://%C3%89") }
    }

    @Test func urlAtTheLimitIsAccepted() throws {
        let prefix = "myapp://note/"
        let url = prefix + String(repeating: "a", count: DeepLinkRouter.maximumURLLength - prefix.utf8.count)
        #expect(try router.plan(for: url).route == "note")
    }

    @Test func urlOverTheLimitIsTooLong() {
        let url = "myapp://note/" + String(repeating: "a", count: DeepLinkRouter.maximumURLLength)
        #expect(throws: DeepLinkError.urlTooLong(length: url.utf8.count, limit: 8192)) { try router.plan(for: url) }
    }

    @Test func badValueMessageIsActionable() {
        #expect(DeepLinkError.badParameterValue(route: "detail", parameter: "id", value: "abc", expected: "an integer")
            .description == "route 'detail': parameter 'id' is 'abc', expected an integer")
    }
}
