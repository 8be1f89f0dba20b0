import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Announcements (Docs/announcements.md): each change that moves focus says what happened and where focus goes, from
/// the manifest's titles, templates and per-locale phrases; another locale on request.
struct AnnouncementTests {
    /// A locale's language is its first non-empty piece between dashes, exactly what `split` gave before.
    @Test func aLocalesLanguageIsItsFirstPieceAsSplitGivesIt() {
        for locale in ["de-CH", "de", "", "-", "--", "-de", "de-", "zh-Hant-TW", "x--y", "é-ü", "a-\u{301}b", "-\u{301}-x"] {
            let split = locale.split(separator: "-").first.map(String.init) ?? locale
            #expect(Announcements.language(of: locale) == split, "\(locale)")
        }
    }

    @Test func renderingFillsPlaceholdersAndTidiesWhatEmptyValuesLeave() {
        let values = ["title": "Saved", "message": "", "question": "Delete?", "index": "2", "count": "3", "name": "Zoë", "wait": "Wait…"]
        let cases: [(String, String)] = [
            ("Alert: {title}. {message}", "Alert: Saved."),
            ("{title}, tab {index} of {count}", "Saved, tab 2 of 3"),
            ("{question}.", "Delete?"),
            ("  {message} {title} ,  {unknown} .", "Saved,."),
            ("{title}, {message}", "Saved"),
            ("Hello {name}, {message}, .", "Hello Zoë,,."),
            ("{unclosed", ""),
            ("a } b", "a } b"),
            ("Détails de {name} — {title}", "Détails de Zoë — Saved"),
            ("{wait}. Next", "Wait… Next"),
            ("{name}. {wait}.", "Zoë. Wait…"),
        ]
        for (template, expected) in cases {
            #expect(Announcements.render(template, values) == expected, "\(template)")
        }
    }

    /// The demo manifest with a French phrase set and a template for `detail`.
    static func manifest() throws -> Manifest {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(Manifest.demoJSON.utf8)) as? [String: Any])
        object["locale"] = "en"
        object["announcements"] = ["fr": [
            "opened": "{title}", "sheet": "{title}, feuille", "back": "Retour à {title}",
            "tab": "{title}, onglet {index} sur {count}", "alert": "Alerte : {title}. {message}",
        ]]
        var screens = try #require(object["screens"] as? [[String: Any]])
        let detail = try #require(screens.firstIndex { $0["name"] as? String == "detail" })
        screens[detail]["announce"] = ["en": "Detail {id}", "fr": "Détail {id}"]
        object["screens"] = screens
        return try Manifest(json: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// The announcements of `outcome`'s events.
    func said(_ outcome: SessionOutcome) -> [Announcements.Announcement] {
        outcome.events.compactMap { if case .announcement(_, let said) = $0 { said } else { nil } }
    }

    @Test func aPushASheetADismissalATabAndAnAlertEachSayWhatHappenedAndWhereFocusGoes() throws {
        let session = try Session(manifest: try Self.manifest(), store: nil)
        let number = try loggedInMain(session)
        let window = try session.window(number)
        let push = said(try session.apply(
            window: number, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"7"}}]}]"#))
        #expect(push.map(\.text) == ["Detail 7"])
        #expect(push.first?.focus == window.graph.activeModelID && push.first?.kind == "opened")
        let sheet = said(try session.apply(
            window: number, batchJSON: #"[{"command":"present","presentation":{"kind":"sheet","model":{"screen":"compose"}}}]"#))
        #expect(sheet.map(\.text) == ["Compose, sheet"])
        let back = said(try session.apply(window: number, batchJSON: #"[{"command":"dismiss"}]"#))
        #expect(back.map(\.text) == ["Detail 7"] && back.first?.kind == "back")
        #expect(back.first?.focus == window.graph.activeModelID)
        // In another locale, the same change: the French template, the French phrase.
        let french = try session.announcement(window: number, acceptLanguage: "fr-CA,fr;q=0.9,en;q=0.5")
        #expect(french.text == "Retour à Détail 7" && french.version == window.graph.version)
        let tab = said(try session.apply(window: number, batchJSON: #"[{"command":"tabsSelectItem","tab":"settings"}]"#))
        #expect(tab.map(\.text) == ["Settings, tab 2 of 2"] && tab.first?.kind == "tab")
        #expect(try session.announcement(window: number, acceptLanguage: "fr").text == "Settings, onglet 2 sur 2")
        let alert = said(try session.apply(
            window: number,
            batchJSON: #"[{"command":"present","presentation":{"kind":"alert","title":"Delete?","message":"It cannot be undone.","actions":[{"id":"ok","title":"OK","role":"cancel"}]}}]"#))
        #expect(alert.map(\.text) == ["Alert: Delete? It cannot be undone."])
        #expect(alert.first?.assertive == true && alert.first?.focus == window.graph.activeModelID)
        #expect(try session.announcement(window: number, acceptLanguage: "de, fr;q=0.1").text.hasPrefix("Alerte : Delete?"))
    }

    @Test func aChangeThatLeavesFocusWhereItIsSaysNothing() throws {
        let session = try Session(manifest: try Self.manifest(), store: nil)
        let number = try loggedInMain(session)
        #expect(said(try session.apply(window: number, batchJSON: #"[{"command":"setParams","title":"Inbox"}]"#)).isEmpty)
        #expect(said(try session.apply(window: number, batchJSON: #"[{"command":"tabsSelectItem","tab":"home"}]"#)).isEmpty)
        // An alert is announced once, not again with each change under it.
        let alert = said(try session.apply(
            window: number,
            batchJSON: #"[{"command":"present","presentation":{"kind":"alert","title":"Wait...","actions":[{"id":"ok","title":"OK","role":"cancel"}]}}]"#))
        #expect(alert.map(\.text) == ["Alert: Wait..."])
        #expect(said(try session.apply(window: number, batchJSON: #"[{"command":"setParams","title":"Inbox 2","model":1}]"#)).isEmpty)
    }

    /// GetAnnouncement says what was said, in another language: the values as they were then, not as they are now.
    @Test func anotherLocaleSaysTheSameAnnouncementAsItWasAndATabSaysItsFocusedScreen() throws {
        let session = try Session(manifest: try Self.manifest(), store: nil)
        let number = try loggedInMain(session)
        _ = try session.apply(window: number, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"7"}}]}]"#)
        _ = try session.apply(window: number, batchJSON: #"[{"command":"setParams","params":{"id":"9"}}]"#)
        #expect(try session.announcement(window: number, acceptLanguage: "fr").text == "Détail 7")
        _ = try session.apply(window: number, batchJSON: #"[{"command":"tabsSelectItem","tab":"settings"}]"#)
        let back = said(try session.apply(window: number, batchJSON: #"[{"command":"tabsSelectItem","tab":"home"}]"#))
        #expect(back.map(\.text) == ["Detail 9, tab 1 of 2"])
    }

    @Test func aManifestWithABadLocaleKindOrTemplateIsRefusedNamingTheKey() throws {
        for (change, key) in [
            (#""locale": "english!""#, "locale"), (#""announcements": {"fr": {"popped": "x"}}"#, "announcements.fr.popped"),
            (#""announcements": {"fr": {"opened": "{title"}}"#, "announcements.fr.opened"),
            (#""announcements": {"f r": {"opened": "x"}}"#, "announcements.f r"),
            (#""announcements": {"fr": {"opened": " "}}"#, "announcements.fr.opened"),
        ] {
            let json = Manifest.demoJSON.replacingOccurrences(of: #""format": 1,"#, with: #""format": 1, \#(change),"#)
            do {
                _ = try Manifest(json: json)
                Issue.record("accepted \(change)")
            } catch {
                #expect("\(error)".contains(key), "\(change): \(error)")
            }
        }
    }

    @Test func acceptLanguagePicksTheBestLocaleTheManifestSpeaks() throws {
        let manifest = try Self.manifest()
        #expect(Announcements.locale(for: "", in: manifest) == "en")
        #expect(Announcements.locale(for: "fr-CA", in: manifest) == "fr")
        #expect(Announcements.locale(for: "de;q=1, fr;q=0.4, en;q=0.5", in: manifest) == "en")
        #expect(Announcements.locale(for: "*", in: manifest) == "en")
        #expect(Announcements.locale(for: "de", in: manifest) == "en")
        #expect(Announcements.isLocale("zh-Hant-TW") && !Announcements.isLocale("x y") && !Announcements.isLocale(""))
    }
}
