import Foundation
import Testing

@testable import NavigationCore

/// Unknown keys in command and batch JSON are errors naming the key and, when one is close, the key meant.
struct StrictKeysTests {
    static func failure(_ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode([BatchCommand].self, from: Data(json.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aMisspelledBatchKeyNamesTheKeyMeant() throws {
        let message = try #require(Self.failure(#"[{"command":"dismiss","animate":false}]"#))
        #expect(message.contains(#"unknown key "animate"; did you mean "animated"?"#))
    }

    @Test(arguments: [
        #"[{"command":"stackAppend","models":[{"screen":"a","parms":{}}]}]"#,
        #"[{"command":"stackAppend","models":[{"screen":"a"}],"transition":"x"}]"#,
        #"[{"command":"sequence","commands":[{"command":"dismiss","from":3}]}]"#,
        #"[{"command":"present","presentation":{"kind":"sheet","model":{"screen":"a"},"title":"x"}}]"#,
        #"[{"command":"present","presentation":{"kind":"alert","title":"x","actions":[{"id":"a","title":"A","rol":"cancel"}]}}]"#,
        #"[{"command":"stackSetPath","path":[{"existing":3,"screen":"x"}]}]"#,
        #"[{"command":"stackSetRoot","model":{"kind":"tabs","tabs":[{"id":"a","title":"A","model":{"screen":"a"},"badge":"1"}]}}]"#,
        #"[{"command":"switchModel","model":{"kind":"alert","dialog":{"title":"t","detents":[]}}}]"#,
    ])
    func unknownKeysAnywhereAreErrors(_ json: String) {
        #expect(Self.failure(json)?.contains("unknown key") == true, "\(json)")
    }

    @Test func everyKeyTheEncoderWritesDecodesAgain() throws {
        let batch = [
            BatchCommand(.stackAppend(.screen("detail", params: ["id": "42"]), transition: "zoom"), from: 4, animated: false),
            BatchCommand(.present(.confirmationDialog(DialogContent(title: "t", message: "m", actions: [
                DialogAction(id: "a", title: "A", role: .cancel, commands: [.dismiss]),
            ]), sourceID: "b"))),
            BatchCommand(.stackSetRoot(.tabs([TabSpec(id: "h", title: "H", icon: "i", model: .stacked(.screen("x")))]), clear: true)),
            BatchCommand(.sendMessage(NavigationMessage("m", payload: "p"), to: .parent)),
            BatchCommand(.openWindow(scene: "main", params: ["a": "b"])),
        ]
        let data = try JSONEncoder().encode(batch)
        #expect(try JSONDecoder().decode([BatchCommand].self, from: data) == batch)
    }

    @Test func aMisspelledCommandNameNamesTheCommandMeant() throws {
        let message = try #require(Self.failure(#"[{"command":"stackApend","models":[]}]"#))
        #expect(message.contains(#"did you mean "stackAppend"?"#))
    }

    @Test(arguments: [("animate", "animated"), ("tabs", "tab"), ("requried", "required"), ("scren", "screen")])
    func closeNamesAreSuggested(_ typed: String, _ meant: String) {
        #expect(Spelling.closest(to: typed, in: ["animated", "tab", "required", "screen", "from"]) == meant)
    }

    @Test func distantNamesAreNotSuggested() {
        #expect(Spelling.closest(to: "zzzz", in: ["animated", "tab"]) == nil)
        #expect(Spelling.closest(to: String(repeating: "a", count: 100), in: ["a"]) == nil)
    }
}
