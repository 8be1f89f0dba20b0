import Foundation
import Testing

@testable import NavigationSession

/// `Manifest.check` (`navsessiond --check-manifest`): the first problem of a manifest, placed at a line and column.
struct ManifestCheckTests {
    /// A small valid manifest, one key per line, so each test knows the line and column it edits.
    static let valid = """
        {
          "format": 1,
          "id": "org.example.App",
          "screens": [
            {"name": "home"},
            {"name": "detail"}
          ],
          "scenes": [
            {"name": "main", "default": true,
             "root": {"kind": "stack", "path": [{"screen": "home"}]}}
          ]
        }
        """

    static func check(_ text: String) -> ManifestDiagnostic? { Manifest.check(json: text, file: "app.json") }

    @Test func aValidManifestHasNoDiagnostic() {
        #expect(Self.check(Self.valid) == nil)
    }

    @Test func aSyntaxErrorIsPlacedAtTheOffendingCharacter() throws {
        let text = Self.valid.replacingOccurrences(of: #"{"name": "detail"}"#, with: #"{"name": "detail",}"#)
        let diagnostic = try #require(Self.check(text))
        #expect(diagnostic.line == 6)
        #expect(diagnostic.column == 23)
        #expect(diagnostic.description.hasPrefix("app.json:6:23: error: malformed JSON: "), "\(diagnostic)")
    }

    @Test func anUnknownKeyIsPlacedAtTheKey() throws {
        let text = Self.valid.replacingOccurrences(of: #"{"name": "detail"}"#, with: #"{"name": "detail", "titel": "x"}"#)
        let diagnostic = try #require(Self.check(text))
        #expect(diagnostic.line == 6)
        #expect(diagnostic.column == 24)
        #expect(diagnostic.description.hasPrefix(#"app.json:6:24: error: screens[1].titel: unknown key "titel""#), "\(diagnostic)")
    }

    @Test func anUnknownScreenIsPlacedAtTheValueThatNamesIt() throws {
        let text = Self.valid.replacingOccurrences(of: #"[{"screen": "home"}]"#, with: #"[{"screen": "hom"}]"#)
        let diagnostic = try #require(Self.check(text))
        #expect(diagnostic.description == "app.json:10:41: error: scenes[0].root.path[0]: unknown screen 'hom'", "\(diagnostic)")
    }

    @Test func aMissingKeyIsPlacedAtTheObjectThatLacksIt() throws {
        let text = Self.valid.replacingOccurrences(of: #"{"name": "detail"}"#, with: #"{"title": "detail"}"#)
        let diagnostic = try #require(Self.check(text))
        #expect(diagnostic.line == 6)
        #expect(diagnostic.column == 5)
        #expect(diagnostic.description.contains("screens[1].name: missing key 'name'"), "\(diagnostic)")
    }

    @Test func aDuplicateKeyIsPlacedAtTheSecondOne() throws {
        let text = Self.valid.replacingOccurrences(of: #""format": 1,"#, with: #""format": 1, "format": 1,"#)
        let diagnostic = try #require(Self.check(text))
        #expect(diagnostic.line == 2)
        #expect(diagnostic.column == 16)
    }

    @Test func anUnreadableFileHasNoPlace() throws {
        let diagnostic = try #require(Manifest.check(file: "/nonexistent/app.json"))
        #expect(diagnostic.isUnreadable)
        #expect(diagnostic.line == nil)
        #expect(diagnostic.description.hasPrefix("/nonexistent/app.json: error: cannot read the manifest"), "\(diagnostic)")
    }

    /// Every key path the validator names (ManifestTests' table) is found in the text it was raised for, so each
    /// of those errors gets the line and column of what it names rather than the top of the file.
    @Test(arguments: ManifestTests.validationCases)
    func everyValidationErrorIsFoundInTheText(_ name: String, _ edit: String, _ key: String) throws {
        struct Edit: Decodable { var replace: String; var with: String }
        let change = try JSONDecoder().decode(Edit.self, from: Data(edit.utf8))
        let text = Manifest.demoJSON.replacingOccurrences(of: change.replace, with: change.with)
        let location = try #require(JSONSyntax.locate(key, in: text), "\(name)")
        // A missing key is placed at the object that lacks it; every other path exists.
        let diagnostic = try #require(Self.check(text))
        if case .invalidValue(_, let detail) = diagnostic.error, detail.hasPrefix("missing key") {
            #expect(!location.complete, "\(name)")
        } else {
            #expect(location.complete, "\(name): \(key)")
        }
        #expect(diagnostic.line == location.value.line || diagnostic.line == location.key?.line, "\(name)")
    }

    @Test func aKeyHoldingDotsIsFoundAsWritten() throws {
        let text = #"{"dialogs": {"a": 1, "a.b": {"actions": [0, {"x": 2}]}}}"#
        let location = try #require(JSONSyntax.locate("dialogs.a.b.actions[1].x", in: text))
        #expect(location.complete)
        #expect(location.value.column == 51)
        #expect(location.key?.column == 46)
    }
}
