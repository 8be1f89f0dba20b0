import Testing

@testable import NavigationCore

struct DebugTreeTests {
    @Test func debugTreeShowsEveryKindAndAttachment() throws {
        let window = try makeWindow(
            .switched(
                .tabs([
                    TabSpec(id: "home", title: "Home", model: .stack([home, .screen("detail", params: ["id": "42", "a": "b"])])),
                    TabSpec(id: "more", title: "More", model: .custom("split", children: [.screen("list"), .screen("pane")])),
                ], selected: "more", screen: "main"), screen: "app"))
        try window.execute(.present(.sheet(.screen("share"))), from: 1)
        try window.execute(.present(.confirmationDialog(DialogContent(title: "?"), sourceID: "btn")), from: 8)
        try window.execute(.present(.alert(DialogContent(title: "!"))), from: 9)
        #expect(
            window.debugTree() == """
                switched app #1 (root)
                  tabs main #2 (switched)
                    screen share #9 (sheet)
                      alert alert #11 (alert)
                    stack stack #3 (tab home)
                      screen home #4 (path[0])
                      screen detail #5 (path[1]) {"a":"b","id":"42"}
                    custom:split split #6 (tab more*)
                      screen list #7 (split[0])
                      screen pane #8 (split[1]*)
                        confirmationDialog confirmationDialog #10 (dialog)

                """)
    }
}
