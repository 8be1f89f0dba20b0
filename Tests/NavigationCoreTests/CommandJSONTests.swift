import Foundation
import Testing

@testable import NavigationCore

struct CommandJSONTests {
    static func decodeBatch(_ json: String) throws -> [BatchCommand] {
        try JSONDecoder().decode([BatchCommand].self, from: Data(json.utf8))
    }

    @Test func theDocumentedBatchExampleDecodes() throws {
        let batch = try Self.decodeBatch(
            #"""
            [{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"42"},"transition":"zoom"}]},
             {"command":"present","presentation":{"kind":"sheet","detents":["medium"],"model":{"kind":"stack","screen":"compose","path":[{"screen":"editor"}]}}},
             {"command":"dismiss","from":17,"animated":false},
             {"command":"stackSetPath","path":[{"existing":3},{"screen":"x"}]},
             {"command":"present","presentation":{"kind":"alert","title":"Delete?","actions":[{"id":"delete","title":"Delete","role":"destructive","commands":[{"command":"stackDropLast"}]}]}},
             {"command":"sendMessage","name":"saved","payload":"7","to":"presenter"}]
            """#)
        #expect(
            batch == [
                BatchCommand(.stackAppend(.screen("detail", params: ["id": "42"]), transition: "zoom")),
                BatchCommand(.present(.sheet(.stack([.screen("editor")], screen: "compose"), detents: ["medium"]))),
                BatchCommand(.dismiss, from: 17, animated: false),
                BatchCommand(.stackSetPath([.existing(3), .spec(.screen("x"))])),
                BatchCommand(.present(.alert(DialogContent(title: "Delete?", actions: [DialogAction(id: "delete", title: "Delete", role: .destructive, commands: [.stackDropLast(1)])])))),
                BatchCommand(.sendMessage(NavigationMessage("saved", payload: "7"), to: .presenter)),
            ])
    }

    static let everyCommand: [NavigationCommand] = [
        .stackAppend(.screen("a", params: ["k": "v"], title: "A"), transition: "fade"), .stackDropLast(2), .stackDropToRoot,
        .stackSetRoot(.stacked(.screen("r")), clear: true), .stackSetPath([.existing(4, transition: "t"), .spec(.screen("n"))]),
        .present(.sheet(.tabs([TabSpec(id: "a", title: "A", icon: "i", model: .screen("x"))], selected: "a"), detents: ["large"])),
        .present(.fullScreenCover(.switched(.screen("s")))), .present(.custom("popover", .custom("split", children: [.screen("c")]))),
        .present(.confirmationDialog(DialogContent(title: "", message: "m", actions: [DialogAction(id: "x", title: "X", role: .cancel)]), sourceID: "b")),
        .dismiss, .dismissJustFromPresented, .hide, .tabsSelectItem("t"), .switchModel(.screen("login").presenting(.sheet(.screen("s")))),
        .openWindow(scene: "viewer", params: ["a": "b"]), .dismissWindow(id: "w"), .dismissWindow(id: nil), .openURL("https://x"),
        .trigger(name: "n", payload: "p"), .sendMessage(NavigationMessage("m"), to: .model(3)), .sendMessage(NavigationMessage("m"), to: .parent),
        .sequence([.dismiss, .stackDropLast(1)]),
        .setRoutes([.push("a", params: ["id": "1"]), .sheet("b", withNavigation: true), .cover("c")], stack: 4),
        .setRoutes([]),
    ]

    @Test(arguments: everyCommand)
    func everyCommandRoundTripsThroughJSON(command: NavigationCommand) throws {
        #expect(try roundTrip(BatchCommand(command, from: 5, animated: false)) == BatchCommand(command, from: 5, animated: false))
    }

    @Test func anUnknownCommandNameIsADecodingErrorNamingIt() {
        #expect {
            try Self.decodeBatch(#"[{"command":"teleport"}]"#)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.hasPrefix("unknown command \"teleport\"; expected one of: stackAppend")
        }
    }

    @Test func aMissingFieldIsADecodingError() {
        #expect(throws: DecodingError.self) { try Self.decodeBatch(#"[{"command":"tabsSelectItem"}]"#) }
    }

    @Test func aWrongPresentationKindIsADecodingError() {
        #expect(throws: DecodingError.self) {
            try Self.decodeBatch(#"[{"command":"present","presentation":{"kind":"drawer","model":{"screen":"a"}}}]"#)
        }
    }

    @Test(arguments: [
        RendererReport.poppedTo(stack: 3, index: 1), .dismissedInteractively(4), .selectedTab(tabs: 2, tab: "x"),
        .alertActionChosen(alert: 9, action: "ok"), .windowClosed,
    ])
    func reportsRoundTripThroughJSON(report: RendererReport) throws {
        #expect(try roundTrip(report) == report)
    }

    @Test func reportJSONMatchesTheDocumentedForm() throws {
        #expect(try jsonText(RendererReport.poppedTo(stack: 3, index: 0)) == #"{"index":0,"report":"poppedTo","stack":3}"#)
        let decoded = try JSONDecoder().decode(RendererReport.self, from: Data(#"{"report":"alertActionChosen","alert":10,"action":"delete"}"#.utf8))
        #expect(decoded == .alertActionChosen(alert: 10, action: "delete"))
    }

    @Test func changeEventsRoundTripThroughJSON() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.onMessage(3) { _ in }
        var event = try window.apply([BatchCommand(.stackDropLast), BatchCommand(.openURL("https://x"), animated: false)])
        #expect(!event.steps.isEmpty)
        // Steps travel in Changed's steps_json (NavigationStep.json), not in the event's own JSON.
        event.steps = []
        #expect(try roundTrip(event) == event)
        #expect(event.messages == [DeliveredMessage(recipient: 3, sender: nil, message: .finished)])
    }

    @Test func commandJSONMatchesTheDocumentedForm() throws {
        #expect(
            try jsonText(BatchCommand(.present(.sheet(.screen("d"), detents: ["medium"])), from: 17))
                == #"{"command":"present","from":17,"presentation":{"detents":["medium"],"kind":"sheet","model":{"kind":"screen","screen":"d"}}}"#)
    }
}
