import Foundation
import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

struct ManifestTests {
    @Test func demoManifestLoadsAndValidates() throws {
        let demo = try Manifest.demo()
        #expect(demo.applicationID == "org.navsession.Demo")
        #expect(demo.sceneNames == ["main", "waiting", "split"])
        #expect(demo.defaultSceneName == "main")
        #expect(demo.router?.schemes == ["navsession-demo"])
        #expect(demo.dialogs.keys.sorted() == ["discardChanges", "error", "logout"])
    }

    @Test func theDemoKeepsItsMainStateWhenItLogsOut() throws {
        let demo = try Manifest.demo()
        #expect(demo.scene("main")?.savedStates == ["main"])
        #expect(demo.windowConfiguration(scene: "main").savedStates == ["main"])
        #expect(demo.windowConfiguration(scene: "waiting").savedStates == [])
    }

    @Test func jsonRoundTripGivesAnEqualManifest() throws {
        let demo = try Manifest.demo()
        let again = try Manifest(json: demo.json())
        #expect(again == demo)
        #expect(try Manifest(json: demo.json(pretty: false)) == demo)
    }

    @Test func badJSONNamesLineAndColumn() {
        let text = "{\n  \"id\": \"org.x.Y\",\n  \"screens\": [,]\n}"
        #expect(throws: ManifestError.malformedJSON(line: 3, column: 15, detail: "unexpected character ','")) {
            try Manifest(json: text)
        }
    }

    static let validationCases: [(String, String, String)] = [
        ("unknown screen in tabs", #"{"replace":"[{\"screen\": \"settings\"}]","with":"[{\"screen\": \"setings\"}]"}"#, "scenes[0].states.main.tabs[1].model.path[0]"),
        ("bad app id", #"{"replace":"org.navsession.Demo","with":"Demo"}"#, "id"),
        ("hyphen in app id", #"{"replace":"org.navsession.Demo","with":"org.nav-session.Demo"}"#, "id"),
        ("duplicate screen", #"{"replace":"\"name\": \"about\"","with":"\"name\": \"home\""}"#, "screens[9].name"),
        ("several defaults", #"{"replace":"\"instances\": \"multiple\"","with":"\"instances\": \"multiple\", \"default\": true"}"#, "scenes[1].default"),
        ("unknown route screen", #"{"replace":"\"screen\": \"about\"}]","with":"\"screen\": \"abuot\"}]"}"#, "deepLinks.routes[3].destination.push[0]"),
        ("missing route param", #"{"replace":"{\"screen\": \"editor\", \"params\": {\"id\": \"{id}\"}}","with":"{\"screen\": \"editor\"}"}"#, "deepLinks.routes[1].destination.present[0].root"),
        ("invalid route pattern", #"{"replace":"\"pattern\": \"settings/about\"","with":"\"pattern\": \"settings//about\""}"#, "deepLinks.routes[3].pattern"),
        ("unknown route scene", #"{"replace":"{\"scene\": \"waiting\", \"open\"","with":"{\"scene\": \"wating\", \"open\""}"#, "deepLinks.routes[4].destination.window.scene"),
        ("unknown dialog command screen", #"{"replace":"\"model\": {\"screen\": \"login\"}","with":"\"model\": {\"screen\": \"logn\"}"}"#, "dialogs.logout.actions[0].commands[0].model"),
        ("unknown state", #"{"replace":"\"deepLinkState\": \"main\"","with":"\"deepLinkState\": \"mian\""}"#, "scenes[0].deepLinkState"),
        ("unknown presentation kind", #"{"replace":"\"root\": {\"screen\": \"waiting\"}","with":"\"root\": {\"screen\": \"waiting\", \"presented\": {\"kind\": \"custom\", \"name\": \"drawer\", \"model\": {\"screen\": \"about\"}}}"}"#, "scenes[1].root.presented.name"),
        ("undeclared param", #"{"replace":"\"path\": [{\"screen\": \"settings\"}]","with":"\"path\": [{\"screen\": \"settings\"}, {\"screen\": \"profile\", \"params\": {\"colour\": \"red\"}}]"}"#, "scenes[0].states.main.tabs[1].model.path[1].params.colour"),
        ("missing required param in structure", #"{"replace":"\"path\": [{\"screen\": \"home\"}]","with":"\"path\": [{\"screen\": \"home\"}, {\"screen\": \"detail\"}]"}"#, "scenes[0].states.main.tabs[0].model.path[1]"),
        ("wrong type", #"{"replace":"\"instances\": \"single\"","with":"\"instances\": 3"}"#, "scenes[0].instances"),
        ("unknown saved state", #"{"replace":"\"savedStates\": [\"main\"]","with":"\"savedStates\": [\"main\", \"mian\"]"}"#, "scenes[0].savedStates[1]"),
        ("unknown state in an entry condition", #"{"replace":"\"requires\": {\"state\": \"main\"}","with":"\"requires\": {\"state\": \"mian\"}"}"#, "screens[10].requires.state"),
        ("unknown screen in a redirect", #"{"replace":"{\"screen\":\"login\"}","with":"{\"screen\":\"logn\"}"}"#, "screens[10].redirect[0].model"),
        ("redirect without an entry condition", #"{"replace":"\"requires\": {\"state\": \"main\"},","with":""}"#, "screens[10].redirect"),
        ("unknown state in a route's entry condition", #"{"replace":"\"requires\": {\"state\": \"main\"}}","with":"\"requires\": {\"state\": \"mian\"}}"}"#, "deepLinks.routes[5].requires.state"),
        ("unknown screen in a route's redirect", #"{"replace":"\"redirect\": [{\"command\": \"switchModel\", \"model\": {\"screen\": \"login\"}}]","with":"\"redirect\": [{\"command\": \"switchModel\", \"model\": {\"screen\": \"logn\"}}]"}"#, "deepLinks.routes[5].redirect[0].model"),
        ("route redirect without a state", #"{"replace":"\"requires\": {\"state\": \"main\"}}","with":"\"requires\": {}}"}"#, "deepLinks.routes[5].redirect"),
        ("unknown key in a route's entry condition", #"{"replace":"\"requires\": {}","with":"\"requires\": {\"stat\": \"main\"}"}"#, "deepLinks.routes[6].requires.stat"),
        ("route redirect that is not a list", #"{"replace":"\"redirect\": [{\"command\": \"switchModel\", \"model\": {\"screen\": \"login\"}}]","with":"\"redirect\": {}"}"#, "deepLinks.routes[5].redirect"),
        ("route state not of the route's scene", #"{"replace":"\"params\": {\"reason\": \"{reason}\"}}}}","with":"\"params\": {\"reason\": \"{reason}\"}}}, \"requires\": {\"state\": \"main\"}}"}"#, "deepLinks.routes[4].requires.state"),
        ("saved state listed twice", #"{"replace":"\"savedStates\": [\"main\"]","with":"\"savedStates\": [\"main\", \"main\"]"}"#, "scenes[0].savedStates[1]"),
    ]

    @Test(arguments: validationCases)
    func validationErrorNamesTheKey(_ name: String, _ edit: String, _ key: String) throws {
        struct Edit: Decodable { var replace: String; var with: String }
        let change = try JSONDecoder().decode(Edit.self, from: Data(edit.utf8))
        let text = Manifest.demoJSON.replacingOccurrences(of: change.replace, with: change.with)
        #expect(text != Manifest.demoJSON, "\(name): edit did not apply")
        do {
            _ = try Manifest(json: text)
            Issue.record("\(name): expected an error")
        } catch {
            #expect(error.key == key, "\(name): \(error)")
            #expect(error.description.hasPrefix(key + ": "))
        }
    }

    @Test func unknownScreenMessageNamesTheScreen() {
        let text = Manifest.demoJSON.replacingOccurrences(of: #"[{"screen": "home"}]"#, with: #"[{"screen": "detial"}]"#)
        #expect(throws: ManifestError.unknownScreen(key: "scenes[0].states.main.tabs[0].model.path[0]", screen: "detial")) {
            try Manifest(json: text)
        }
    }

    @Test func twoModelsOfOneStateCarryingOneTagAreRefusedNamingTheTag() {
        let text = Manifest.demoJSON
            .replacingOccurrences(of: #"[{"screen": "home"}]"#, with: #"[{"screen": "home", "tag": "top"}]"#)
            .replacingOccurrences(of: #"[{"screen": "settings"}]"#, with: #"[{"screen": "settings", "tag": "top"}]"#)
        do {
            _ = try Manifest(json: text)
            Issue.record("a state whose two models carry one tag was accepted")
        } catch {
            #expect(error.key == "scenes[0].states.main", "\(error)")
            #expect(error.description.contains("top"), "\(error)")
        }
    }

    @Test func aTagASavedStateSharesWithAnotherStateIsRefusedNamingBoth() {
        // `main` is kept when the window logs out: its tag would stay taken while `login` is built.
        let text = Manifest.demoJSON
            .replacingOccurrences(of: #"[{"screen": "home"}]"#, with: #"[{"screen": "home", "tag": "top"}]"#)
            .replacingOccurrences(of: #""path": [{"screen": "login"}]"#, with: #""path": [{"screen": "login", "tag": "top"}]"#)
        #expect(text.components(separatedBy: #""tag": "top""#).count == 3)
        do {
            _ = try Manifest(json: text)
            Issue.record("a tag shared by a saved state and another state was accepted")
        } catch {
            #expect(error.key == "scenes[0].states.login", "\(error)")
            #expect(error.description.contains("'top'") && error.description.contains("'main'"), "\(error)")
        }
    }

    @Test func noDefaultSceneIsAnError() {
        let text = Manifest.demoJSON.replacingOccurrences(of: #""default": true,"#, with: "")
        #expect(throws: ManifestError.noDefaultScene) { try Manifest(json: text) }
    }

    @Test func missingKeyIsNamed() {
        #expect(throws: ManifestError.invalidValue(key: "screens", detail: "missing key 'screens'")) {
            try Manifest(json: #"{"id": "org.a.B", "scenes": []}"#)
        }
    }

    @Test func unknownManifestKeysAreErrorsNamingTheKeyMeant() throws {
        var json = Manifest.demoJSON
        json = json.replacingOccurrences(of: #""required":"#, with: #""requried":"#)
        #expect(throws: ManifestError.self) { try Manifest(json: json) }
        do {
            _ = try Manifest(json: json)
        } catch {
            #expect("\(error)".contains(#"did you mean "required"?"#))
        }
    }

    @Test func aDeepLinkDestinationWithTabsForTabIsAnError() throws {
        var json = Manifest.demoJSON
        #expect(json.contains(#""tab":"#))
        json = json.replacingOccurrences(of: #""tab":"#, with: #""tabs":"#)
        do {
            _ = try Manifest(json: json)
            Issue.record("a destination with \"tabs\" loaded")
        } catch {
            #expect("\(error)".contains("tabs"))
        }
    }

    @Test func swiftDeclarationValidatesLikeJSON() throws {
        let manifest = try Manifest(
            applicationID: "com.example.Notes",
            screens: [ScreenDeclaration(name: "list"), ScreenDeclaration(name: "note", required: ["id"])],
            scenes: [SceneDeclaration(name: "main", isDefault: true, root: .stacked(.screen("list")))])
        #expect(try Manifest(json: manifest.json()) == manifest)
        #expect(throws: ManifestError.self) {
            try Manifest(
                applicationID: "com.example.Notes", screens: [ScreenDeclaration(name: "list")],
                scenes: [SceneDeclaration(name: "main", isDefault: true, root: .stacked(.screen("note")))])
        }
    }

    @Test func initialParamsNameDeclaredParamsAndFillARequiredOne() throws {
        let declared = Manifest.demoJSON.replacingOccurrences(
            of: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"]}"#,
            with: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"], "initialParams": {"edit": "false"}}"#)
        #expect(declared != Manifest.demoJSON)
        let manifest = try Manifest(json: declared)
        #expect(manifest.windowConfiguration.screens?.screens["detail"]?.initialParams == ["edit": "false"])
        let unknown = declared.replacingOccurrences(of: #""initialParams": {"edit": "false"}"#, with: #""initialParams": {"edti": "false"}"#)
        #expect(throws: ManifestError.unknownParameter(key: "screens[5].initialParams.edti", screen: "detail", parameter: "edti")) {
            try Manifest(json: unknown)
        }
    }

    @Test func anIdentityNamesDeclaredParamsOnce() throws {
        let base = #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"]}"#
        let declared = Manifest.demoJSON.replacingOccurrences(
            of: base, with: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"], "identity": ["id"]}"#)
        #expect(try Manifest(json: declared).windowConfiguration.screens?.screens["detail"]?.identity == ["id"])
        let unknown = declared.replacingOccurrences(of: #""identity": ["id"]"#, with: #""identity": ["ids"]"#)
        #expect(throws: ManifestError.unknownParameter(key: "screens[5].identity[0]", screen: "detail", parameter: "ids")) {
            try Manifest(json: unknown)
        }
    }
}
