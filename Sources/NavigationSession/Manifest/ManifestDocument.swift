#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore

/// The JSON shape of a manifest, before validation.
struct ManifestDocument: Codable {
    var format: Int
    var id: String
    var title: String?
    var screens: [ScreenDeclaration]
    var scenes: [SceneDeclaration]
    var dialogs: [String: DialogDeclaration]
    var presentationKinds: [String]
    var capabilities: RendererCapabilities
    var deepLinks: JSONValue?
    var freeFormScreens = false
    var guards: [String: GuardDeclaration] = [:]
    /// Transition rules and eligibility.
    var transitions: TransitionsDeclaration?
    /// What comes back at start, per reason, and the crash-loop guard.
    var restore: RestoreDeclaration?
    /// Migration from the manifest before (Docs/manifest.md, "Changing the manifest"): screens renamed (old → new)
    /// and screens removed with a replacement (removed → fallback).
    var renamed: [String: String] = [:]
    var fallback: [String: String] = [:]
    /// The language of the manifest's titles and of announcements without a locale of their own (default `en`).
    var locale: String?
    /// Announcement phrases per locale: locale → kind (`opened`, `sheet`, `back`, `tab`, `alert`, `dialog`) → template.
    var announcements: [String: [String: String]] = [:]
    /// Declared paths through the screens whose progress `GetStats` counts: name → screens in order.
    var funnels: [String: [String]] = [:]

    init(
        format: Int, id: String, title: String?, screens: [ScreenDeclaration], scenes: [SceneDeclaration],
        dialogs: [String: DialogDeclaration], presentationKinds: [String], capabilities: RendererCapabilities,
        deepLinks: JSONValue?
    ) {
        self.format = format
        self.id = id
        self.title = title
        self.screens = screens
        self.scenes = scenes
        self.dialogs = dialogs
        self.presentationKinds = presentationKinds
        self.capabilities = capabilities
        self.deepLinks = deepLinks
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, id, title, freeFormScreens, screens, scenes, dialogs, presentationKinds, capabilities, deepLinks, guards
        case transitions
        case restore
        case renamed, fallback
        case locale, announcements, funnels
        /// The schema's URL for editors (`"$schema": "https://navsession.org/schemas/manifest.json"`);
        /// a string when given, otherwise ignored, never written back.
        case schema = "$schema"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decodeIfPresent(Int.self, forKey: .format) ?? Manifest.formatVersion
        id = try c.decode(String.self, forKey: .id)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        screens = try c.decode([ScreenDeclaration].self, forKey: .screens)
        scenes = try c.decode([SceneDeclaration].self, forKey: .scenes)
        dialogs = try c.decodeIfPresent([String: DialogDeclaration].self, forKey: .dialogs) ?? [:]
        presentationKinds = try c.decodeIfPresent([String].self, forKey: .presentationKinds) ?? []
        capabilities = try c.decodeIfPresent(RendererCapabilities.self, forKey: .capabilities) ?? RendererCapabilities()
        deepLinks = try c.decodeIfPresent(JSONValue.self, forKey: .deepLinks)
        freeFormScreens = try c.decodeIfPresent(Bool.self, forKey: .freeFormScreens) ?? false
        guards = try c.decodeIfPresent([String: GuardDeclaration].self, forKey: .guards) ?? [:]
        transitions = try c.decodeIfPresent(TransitionsDeclaration.self, forKey: .transitions)
        restore = try c.decodeIfPresent(RestoreDeclaration.self, forKey: .restore)
        renamed = try c.decodeIfPresent([String: String].self, forKey: .renamed) ?? [:]
        fallback = try c.decodeIfPresent([String: String].self, forKey: .fallback) ?? [:]
        locale = try c.decodeIfPresent(String.self, forKey: .locale)
        announcements = try c.decodeIfPresent([String: [String: String]].self, forKey: .announcements) ?? [:]
        funnels = try c.decodeIfPresent([String: [String]].self, forKey: .funnels) ?? [:]
        _ = try c.decodeIfPresent(String.self, forKey: .schema)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encode(screens, forKey: .screens)
        try c.encode(scenes, forKey: .scenes)
        if !dialogs.isEmpty { try c.encode(dialogs, forKey: .dialogs) }
        if !presentationKinds.isEmpty { try c.encode(presentationKinds, forKey: .presentationKinds) }
        try c.encode(capabilities, forKey: .capabilities)
        try c.encodeIfPresent(deepLinks, forKey: .deepLinks)
        if freeFormScreens { try c.encode(true, forKey: .freeFormScreens) }
        if !guards.isEmpty { try c.encode(guards, forKey: .guards) }
        try c.encodeIfPresent(transitions, forKey: .transitions)
        try c.encodeIfPresent(restore, forKey: .restore)
        if !renamed.isEmpty { try c.encode(renamed, forKey: .renamed) }
        if !fallback.isEmpty { try c.encode(fallback, forKey: .fallback) }
        try c.encodeIfPresent(locale, forKey: .locale)
        if !announcements.isEmpty { try c.encode(announcements, forKey: .announcements) }
        if !funnels.isEmpty { try c.encode(funnels, forKey: .funnels) }
    }

    /// Decodes `text`, turning decoding errors into ``ManifestError`` with a key path or line and column.
    ///
    /// Before decoding: the size limit, then one linear scan for what the decoder would accept silently
    /// (a key given twice, keys and strings over the run-time limits for names and texts).
    static func decode(_ text: String) throws(ManifestError) -> ManifestDocument {
        let size = text.utf8.count
        guard size <= Manifest.maximumBytes else {
            throw .tooLarge(key: "(root)", bytes: size, limit: Manifest.maximumBytes)
        }
        let limits = GraphLimits()
        let rules = JSONSyntax.Rules(maxKeyBytes: limits.maxNameBytes, maxStringBytes: limits.maxTextBytes)
        if let failure = JSONSyntax.firstError(in: text, rules: rules) {
            let key = "line \(failure.line), column \(failure.column)"
            switch failure.problem {
            case .syntax: throw .malformedJSON(line: failure.line, column: failure.column, detail: failure.reason)
            case .duplicateKey(let name): throw .duplicateKey(line: failure.line, column: failure.column, name: name)
            case .keyTooLong(let bytes, let limit): throw .nameTooLong(key: key, bytes: bytes, limit: limit)
            case .stringTooLong(let bytes, let limit): throw .textTooLong(key: key, bytes: bytes, limit: limit)
            }
        }
        guard !JSONString.containsNULEscape(text) else {
            throw .invalidValue(key: "(root)", detail: "\\u0000: names and texts cannot hold a NUL byte (D-Bus strings cannot)")
        }
        do {
            return try JSONDecoder().decode(ManifestDocument.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw describe(error, text: text)
        } catch {
            throw .invalidValue(key: "(root)", detail: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError, text: String) -> ManifestError {
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidValue(key: keyPath(context.codingPath + [key]), detail: "missing key '\(key.stringValue)'")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return .invalidValue(key: keyPath(context.codingPath), detail: "expected \(typeName(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                if let failure = JSONSyntax.firstError(in: text) {
                    return .malformedJSON(line: failure.line, column: failure.column, detail: failure.reason)
                }
                return .invalidValue(key: "(root)", detail: context.debugDescription)
            }
            return .invalidValue(key: keyPath(context.codingPath), detail: context.debugDescription)
        @unknown default:
            return .invalidValue(key: "(root)", detail: "\(error)")
        }
    }

    /// `scenes[1].root.tabs[0].model` from a coding path.
    static func keyPath(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result.isEmpty ? "(root)" : result
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch String(describing: type) {
        case "String": "a string"
        case "Bool": "a boolean"
        case "Int", "Double": "a number"
        case let name where name.hasPrefix("Array"): "an array"
        case let name where name.hasPrefix("Dictionary"): "an object"
        case let name: "a value of type \(name)"
        }
    }
}
