import NavigationCore

/// What a screen reader hears after a change (Window1 `Announcement`, Docs/announcements.md): a short text built from
/// the manifest's titles, its screens' `announce` templates and its per-locale phrases, and the model that should
/// take focus. A route announcer as web frameworks ship in-process (WCAG 4.1.3, status messages), made once for
/// every renderer.
public enum Announcements {
    /// The kinds of change a phrase exists for.
    public static let kinds = ["opened", "sheet", "back", "tab", "alert", "dialog"]

    /// The built-in phrases (English): `{title}` the focused model's title, `{message}` a dialog's message, `{index}`
    /// and `{count}` a tab's place, `{screen}` the screen's name, `{NAME}` the model's parameter NAME.
    static let english: [String: String] = [
        "opened": "{title}", "sheet": "{title}, sheet", "back": "{title}", "tab": "{title}, tab {index} of {count}",
        "alert": "Alert: {title}. {message}", "dialog": "{title}, dialog. {message}",
    ]

    /// One announcement: what is said, where focus goes, and whether it interrupts (an alert or a dialog).
    public struct Announcement: Hashable, Sendable {
        /// The window version of the change it is about.
        public var version: Int
        /// The text.
        public var text: String
        /// The model that should take focus.
        public var focus: ModelID
        /// The kind of change (``Announcements/kinds``).
        public var kind: String
        /// What its text was made of, as it was (`GetAnnouncement` says the same in another locale): the focused
        /// screen, its title, parameters, a dialog's message, a tab's place.
        var values: [String: String] = [:]
        /// `true` for an alert or a dialog (assistive technologies say it at once, interrupting).
        public var assertive: Bool { kind == "alert" || kind == "dialog" }
    }

    /// Whether `tag` is a language tag such as `en`, `fr`, `pt-BR`, `zh-Hant-TW` (letters, then `-` and letters or
    /// digits; 1–35 characters).
    public static func isLocale(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.utf8.count <= 35, let first = parts.first, (1...8).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// What is wrong with a template (`nil`: nothing): a `{` never closed, a `{}` or a `{` inside a placeholder.
    public static func templateProblem(_ template: String) -> String? {
        var open = false
        var name = 0
        for character in template {
            if character == "{" {
                if open { return "'{' inside a placeholder: \(template.prefix(80))" }
                open = true
                name = 0
            } else if character == "}" && open {
                if name == 0 { return "an empty placeholder '{}': \(template.prefix(80))" }
                open = false
            } else if open {
                name += 1
            }
        }
        return open ? "a '{' is never closed: \(template.prefix(80))" : nil
    }

    /// The language of `locale` (`de` for `de-CH`): its first non-empty piece between dashes, as `split` gives it,
    /// found without building the array of pieces (this runs on every change); `locale` itself when it has none.
    ///
    /// A locale is ASCII (BCP 47): its bytes are its characters, so the dashes are found among them without
    /// breaking it into characters (twice per change, that was most of an announcement's cost). Other text is cut
    /// by characters, as `split` does.
    static func language(of locale: String) -> String {
        let bytes = locale.utf8
        if bytes.allSatisfy({ $0 < 0x80 }) {
            let dash = UInt8(ascii: "-")
            guard let start = bytes.firstIndex(where: { $0 != dash }) else { return locale }
            let end = bytes[start...].firstIndex(of: dash) ?? bytes.endIndex
            if start == bytes.startIndex, end == bytes.endIndex { return locale }
            return String(locale[start..<end])
        }
        let pieces = locale.drop { $0 == "-" }
        return pieces.isEmpty ? locale : String(pieces.prefix { $0 != "-" })
    }

    /// `template` with each `{name}` replaced by `values[name]` (unknown names by nothing), whitespace and stray
    /// punctuation left by empty values tidied (`"Alert: Saved. "` → `"Alert: Saved."`): runs of spaces are one,
    /// none leads, none stands before a `.` or `,`, and trailing spaces and commas go.
    ///
    /// One pass over the UTF-8 bytes (a change that moves focus renders one or two of these): `{`, `}`, `.`, `,`
    /// and the space are ASCII, which no byte of a multi-byte character equals.
    static func render(_ template: String, _ values: [String: String]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(template.utf8.count + 32)
        var pendingSpace = false
        func emit(_ byte: UInt8) {
            if byte == UInt8(ascii: " ") {
                pendingSpace = !out.isEmpty
                return
            }
            if pendingSpace, byte != UInt8(ascii: "."), byte != UInt8(ascii: ",") { out.append(UInt8(ascii: " ")) }
            pendingSpace = false
            out.append(byte)
        }
        var nameStart: String.UTF8View.Index?
        var endsSentence = false
        let utf8 = template.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            defer { index = utf8.index(after: index) }
            if let start = nameStart {
                guard byte == UInt8(ascii: "}") else { continue }
                let value = values[String(template[start..<index])] ?? ""
                for valueByte in value.utf8 { emit(valueByte) }
                // A value ending its own sentence ("Delete?", "Wait…") takes no second stop from the template.
                // "…" by its bytes first: comparing characters costs more than the rest of the rendering.
                endsSentence = value.utf8.last.map { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "?")
                    || $0 == UInt8(ascii: "!") } ?? false
                    || (value.utf8.last == 0xA6 && value.utf8.reversed().starts(with: [0xA6, 0x80, 0xE2])
                        && value.hasSuffix("…"))
                nameStart = nil
                continue
            }
            if byte == UInt8(ascii: "{") {
                nameStart = utf8.index(after: index)
            } else if !(byte == UInt8(ascii: ".") && endsSentence) {
                emit(byte)
            }
            endsSentence = false
        }
        while out.last == UInt8(ascii: ",") { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// The manifest's locale best matching `acceptLanguage` (`"fr-CA,fr;q=0.9,en;q=0.5"`; `""`: the manifest's own):
    /// the highest-weighted range that names a locale the manifest has phrases or templates for, by exact tag, then
    /// by its language alone; else the manifest's locale.
    public static func locale(for acceptLanguage: String, in manifest: Manifest) -> String {
        var ranges: [(tag: String, weight: Double, order: Int)] = []
        for (order, item) in acceptLanguage.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingSpaces }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            if weight > 0 { ranges.append((tag.lowercased(), weight, order)) }
        }
        ranges.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }
        let known = manifest.announcementLocales
        for range in ranges {
            if range.tag == "*" { return manifest.locale }
            if let exact = known.first(where: { $0.lowercased() == range.tag }) { return exact }
            let language = Announcements.language(of: range.tag)
            if let near = known.first(where: { $0.lowercased().split(separator: "-").first.map(String.init) == language }) {
                return near
            }
        }
        return manifest.locale
    }
}

extension Manifest {
    /// Every locale the manifest speaks: its own, its phrases', its screens' templates'.
    public var announcementLocales: [String] {
        var locales = [locale]
        for key in announcements.keys.sorted() where !locales.contains(key) { locales.append(key) }
        for screen in screens {
            for key in (screen.announce ?? [:]).keys.sorted() where !key.isEmpty && !locales.contains(key) { locales.append(key) }
        }
        return locales
    }

    /// The phrase for `kind` in `locale`: the manifest's for that tag, for its language, then the built-in English.
    func phrase(_ kind: String, locale: String) -> String {
        Self.phrase(kind, locale: locale, in: announcements)
    }

    /// ``phrase(_:locale:)`` from a manifest's `announcements`.
    static func phrase(_ kind: String, locale: String, in announcements: [String: [String: String]]) -> String {
        let language = Announcements.language(of: locale)
        return announcements[locale]?[kind] ?? announcements[language]?[kind] ?? Announcements.english[kind] ?? "{title}"
    }
}

extension Session {
    /// The announcement of `event`, a change of `window`, in `locale` (default: the manifest's); `nil` when the change
    /// moved no focus (a parameter, a renderer's state, a mark) and presented no alert or dialog.
    func announcement(of event: ChangeEvent, in window: SessionWindow, locale: String? = nil) -> Announcements.Announcement? {
        // Once per focus: a change that leaves it where it was (a title, a mark, a renderer's state) says nothing, an
        // alert on top included.
        guard !event.isNoOp, window.announcedFocus != event.activeModel, let focus = window.graph.focus(event.activeModel)
        else { return nil }
        let id = event.activeModel
        let kind: String
        if let dialog = focus.dialogKind {
            kind = dialog
        } else if event.steps.contains(where: { if case .selectTab = $0 { true } else { false } }) {
            kind = "tab"
        } else if event.started.contains(id) || event.resumed.contains(id) {
            kind = focus.isPresented ? "sheet" : "opened"
        } else {
            kind = event.finished.isEmpty ? "opened" : "back"
        }
        let values = announcementValues(focus)
        return Announcements.Announcement(
            version: event.version,
            text: announcementText(kind: kind, screen: focus.screen, values: values, locale: locale ?? declaredLocale),
            focus: id, kind: kind, values: values)
    }

    /// The text of an announcement of `kind` focusing `focus`: the screen's `announce` template for the locale, else
    /// the kind's phrase; both filled with the model's title, parameters, a dialog's message, a tab's place.
    func announcementValues(_ focus: NavigationWindow.Focus) -> [String: String] {
        var values = focus.params
        // Room for what is added below: one allocation, not one per growth.
        values.reserveCapacity(focus.params.count + 5)
        values["title"] = focus.title ?? declaredScreen(focus.screen)?.title ?? focus.screen
        values["screen"] = focus.screen
        if let message = focus.message { values["message"] = message }
        if let tab = focus.tab {
            values["index"] = String(tab.index)
            values["count"] = String(tab.count)
        }
        return values
    }

    /// The text of an announcement of `kind` focusing a model of `screen`: the screen's `announce` template for the
    /// locale, else the kind's phrase; both filled with `values`.
    func announcementText(kind: String, screen: String, values: [String: String], locale: String) -> String {
        var values = values
        let language = Announcements.language(of: locale)
        let own = declaredScreen(screen)?.announce
        let template = own?[locale] ?? own?[language] ?? own?[""]
            ?? (locale == declaredLocale ? nil : own?[declaredLocale])
        if let template, kind != "alert", kind != "dialog" {
            // A tab switch or a sheet still says what happened around the screen's own words.
            let phrase = declaredPhrase(kind, locale: locale)
            values["title"] = Announcements.render(template, values)
            return Announcements.render(phrase, values)
        }
        return Announcements.render(declaredPhrase(kind, locale: locale), values)
    }

    /// Window `number`'s newest announcement in the locale best matching `acceptLanguage` (Window1
    /// `GetAnnouncement`): its version, text and focus; `(0, "", 0)` before any.
    /// - Throws: ``SessionError/unknownWindow(_:)``.
    public func announcement(window number: WindowNumber, acceptLanguage: String) throws(SessionError) -> (version: Int, text: String, focus: ModelID) {
        let window = try window(number)
        guard let last = window.lastAnnouncement else { return (0, "", ModelID(rawValue: 0)) }
        // As it was said: the values it was made of then, in the locale asked for.
        let locale = Announcements.locale(for: acceptLanguage, in: manifest)
        let screen = last.values["screen"] ?? ""
        return (last.version, announcementText(kind: last.kind, screen: screen, values: last.values, locale: locale), last.focus)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        var slice = self
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
