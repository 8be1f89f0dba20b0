import NavigationCore
import Testing
import NavigationRouting

struct RouteJSONTests {
    static let fixed = #"[{"style":"push","screen":"a"},{"style":"sheet","screen":"b","withNavigation":true},{"style":"cover","screen":"c","withNavigation":false}]"#

    @Test func decodesTheFixedForm() throws {
        #expect(try Route.list(fromJSON: Self.fixed) == [.push("a"), .sheet("b", withNavigation: true), .cover("c")])
    }

    @Test func encodesTheFixedFormWithPushOmittingWithNavigation() {
        #expect(Route.json([.push("a"), .sheet("b", withNavigation: true), .cover("c")]) == Self.fixed)
    }

    @Test func paramsComeAfterTheScreenWithSortedKeysAndOnlyWhenNotEmpty() {
        let routes: [Route] = [.push("a", params: ["z": "1", "b": "\"2\""]), .sheet("s", params: ["id": "7"], withNavigation: true), .push("c")]
        #expect(Route.json(routes) == #"[{"style":"push","screen":"a","params":{"b":"\"2\"","z":"1"}},{"style":"sheet","screen":"s","params":{"id":"7"},"withNavigation":true},{"style":"push","screen":"c"}]"#)
    }

    @Test func paramsRoundTripThroughJSON() throws {
        let routes: [Route] = [.push("a", params: ["k": "v/é\n"]), .cover("c", params: ["x": ""])]
        #expect(try Route.list(fromJSON: Route.json(routes)) == routes)
        #expect(try Route.list(fromJSON: Route.json(routes, pretty: true)) == routes)
    }

    @Test func paramsThatAreNotStringsNameTheElement() {
        #expect(throws: RouteDecodingError.wrongType(element: 1, field: "params", expected: "JSON object of strings")) {
            try Route.list(fromJSON: #"[{"style":"push","screen":"a"},{"style":"push","screen":"b","params":{"id":1}}]"#)
        }
    }

    @Test func withNavigationDefaultsToFalse() throws {
        #expect(try Route.list(fromJSON: #"[{"style":"sheet","screen":"b"}]"#) == [.sheet("b", withNavigation: false)])
    }

    @Test func pushMaySayWithNavigationFalse() throws {
        #expect(try Route.list(fromJSON: #"[{"style":"push","screen":"a","withNavigation":false}]"#) == [.push("a")])
    }

    @Test func emptyArrayIsNoRoutes() throws {
        #expect(try Route.list(fromJSON: "[]") == [])
    }

    @Test func roundTripsThroughJSON() throws {
        let routes: [Route] = [.cover("x/y", withNavigation: true), .push("quote\"and\\back\nslash"), .sheet("é")]
        #expect(try Route.list(fromJSON: Route.json(routes)) == routes)
        #expect(try Route.list(fromJSON: Route.json(routes, pretty: true)) == routes)
    }

    @Test func statesAreWrittenAsOneCompactLine() {
        #expect(Route.json(states: [[], [.push("a")]]) == #"[[],[{"style":"push","screen":"a"}]]"#)
    }

    @Test func prettyStatesPutOneRoutePerLine() {
        #expect(Route.json(states: [[], [.push("a")]], pretty: true) == """
            [
              [],
              [
                {"style":"push","screen":"a"}
              ]
            ]
            """)
    }

    @Test(arguments: [
        (#"[{"style":"push","screen":"a"},{"style":"push","screen":"b"},{"style":"mo dal","screen":"c"}]"#,
         RouteDecodingError.unknownStyle(element: 2, style: "mo dal")),
        (#"[{"style":"push"}]"#, .missingField(element: 0, field: "screen")),
        (#"[{"screen":"a"}]"#, .missingField(element: 0, field: "style")),
        (#"[{"style":"push","screen":1}]"#, .wrongType(element: 0, field: "screen", expected: "string")),
        (#"[{"style":"sheet","screen":"a","withNavigation":"yes"}]"#,
         .wrongType(element: 0, field: "withNavigation", expected: "boolean")),
        (#"[{"style":"push","screen":"a"},3]"#, .notAnObject(element: 1)),
        (#"{"style":"push","screen":"a"}"#, .notAnArray),
        (#"[{"style":"push","screen":"a","withNavigation":true}]"#, .navigationOnPush(element: 0)),
    ])
    func rejectsBadInputWithTheElementAtFault(json: String, error: RouteDecodingError) {
        #expect(throws: error) { try Route.list(fromJSON: json) }
    }

    @Test func rejectsTextThatIsNotJSON() {
        #expect {
            try Route.list(fromJSON: "[{")
        } throws: { error in
            guard case .malformedJSON = error as? RouteDecodingError else { return false }
            return true
        }
    }

    @Test func unknownStyleMessageSaysWhatAndWhere() {
        #expect(RouteDecodingError.unknownStyle(element: 2, style: "modal").description
            == "element 2: unknown style 'modal' (expected push, sheet, cover or a presentation kind's name)")
    }
}
