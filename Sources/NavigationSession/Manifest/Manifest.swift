import FoundationEssentials
import Glibc
import NavigationCore
import NavigationRouting

/// An application as the session serves it: id, screens, scenes, dialogs, deep links, presentation
/// kinds and renderer capabilities. Always validated: a `Manifest` value cannot be invalid.
///
/// Load one from JSON (`Docs/manifest.md` describes every key), or use the built-in demo:
/// ```swift
/// let manifest = try Manifest(json: text)        // throws ManifestError naming the key or line
/// let demo = try Manifest.demo()                 // org.navsession.Demo
/// print(Manifest.demoJSON)                       // navsessiond --print-demo-manifest
/// ```
public struct Manifest: Hashable, Sendable {
    /// The manifest format this library reads and writes (`"format": 1`).
    public static let formatVersion = 1

    /// The largest manifest read, in bytes (4 MiB), checked before parsing: the demo is 5 KB and 10 000
    /// deep-link routes fit in 2 MB, while an unbounded file would be held whole in memory several times.
    public static let maximumBytes = 4 << 20

    /// The application id: a D-Bus well-known bus name such as `org.navsession.Demo`.
    public let applicationID: String
    /// A human name for the application.
    public let title: String?
    /// Every screen, in declaration order.
    public let screens: [ScreenDeclaration]
    /// Every scene, in declaration order (the Session1 `Scenes` property lists their names).
    public let scenes: [SceneDeclaration]
    /// Named alerts and confirmation dialogs.
    public let dialogs: [String: DialogDeclaration]
    /// Custom presentation kinds the renderers understand (e.g. `popover`).
    public let presentationKinds: [String]
    /// Renderer capabilities of every window unless its scene overrides them.
    public let capabilities: RendererCapabilities
    /// The deep-link declaration (NavigationRouting's JSON form), verbatim.
    public let deepLinks: JSONValue?
    /// Whether commands may show screens the manifest does not declare (`"freeFormScreens": true`).
    /// Otherwise, once the manifest declares screens, only those can enter a window.
    public let freeFormScreens: Bool
    /// The router built from ``deepLinks``; `nil` when the application declares no deep links.
    public let router: DeepLinkRouter?
    /// The name of the scene marked default.
    public let defaultSceneName: String
    /// Guards decided by another process (Docs/guards.md, "Guard providers"), by name.
    public let guards: [String: GuardDeclaration]
    /// Transition rules and eligibility; `nil` when the manifest declares none.
    public let transitions: TransitionsDeclaration?
    /// What comes back at start per reason, and the crash-loop guard (default: everything).
    public let restore: RestoreDeclaration
    /// Screens renamed since the manifest before: old name → the declared screen it is now (a reload or a start with
    /// this manifest migrates models of the old name; Docs/manifest.md, "Changing the manifest").
    public let renamed: [String: String]
    /// Screens removed since the manifest before, with the declared screen that replaces their models (a removed
    /// screen without one is popped or dismissed).
    public let fallback: [String: String]
    /// The language of the titles and of announcements without a locale of their own (`locale`, default `en`).
    public let locale: String
    /// Announcement phrases per locale (Docs/announcements.md): locale → kind → template, over the built-in English.
    public let announcements: [String: [String: String]]
    /// Declared paths through the screens whose progress `GetStats` counts (Docs/analytics.md): name → screens.
    public let funnels: [String: [String]]
    /// ``guards`` by covered screen.
    let guardTable: GuardTable
    /// Route name → the route's own entry condition (`deepLinks.routes[i].requires`/`redirect`).
    public let routeConditions: [String: DeepLinkEntryCondition]

    let screensByName: [String: ScreenDeclaration]
    let scenesByName: [String: SceneDeclaration]

    /// Parses and validates a manifest.
    ///
    /// - Throws: ``ManifestError``: `tooLarge` over ``maximumBytes``; `malformedJSON`, `duplicateKey`, and
    ///   `nameTooLong`/`textTooLong` (an object key or string over the run-time limits) with line and
    ///   column; `invalidValue` naming the key for a wrong shape, and the validation cases (unknown screens,
    ///   missing parameters, duplicate names, names over the limit, default scenes, application id, routes,
    ///   presentation kinds).
    public init(json: String) throws(ManifestError) {
        try self.init(document: ManifestDocument.decode(json))
        self.json = json
    }

    /// The text it was read from (``init(json:)``, ``init(contentsOfFile:)``); `nil` when built from Swift values. The
    /// state directory keeps it beside the state written under it (Docs/manifest.md, "Changing the manifest").
    public private(set) var json: String?

    /// Reads, parses and validates a manifest file.
    ///
    /// - Throws: ``ManifestError/unreadable(path:detail:)`` when the file cannot be read,
    ///   ``ManifestError/tooLarge(key:bytes:limit:)`` (key: the path) over ``maximumBytes`` (known from its
    ///   size, before reading), else as ``init(json:)``.
    public init(contentsOfFile path: String) throws(ManifestError) {
        try self.init(json: Self.readText(path))
    }

    /// The text of the manifest file at `path` (what `SIGHUP` reloads), bounded by ``maximumBytes``.
    /// - Throws: ``ManifestError/unreadable(path:detail:)``, ``ManifestError/tooLarge(key:bytes:limit:)``.
    public static func text(ofFile path: String) throws(ManifestError) -> String { try readText(path) }

    /// The text of the manifest file at `path`, bounded by ``maximumBytes`` before and while reading.
    static func readText(_ path: String) throws(ManifestError) -> String {
        // POSIX rather than FileHandle: the product modules use FoundationEssentials only (no FileHandle).
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw .unreadable(path: path, detail: FileIO.failure("cannot open", path).message) }
        defer { close(file) }
        var info = stat()
        let size = fstat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        guard size <= Self.maximumBytes else {
            throw .tooLarge(key: path, bytes: size, limit: Self.maximumBytes)
        }
        let bytes: [UInt8]
        do throws(FileIO.Failure) {
            // Bounded even where the size says nothing (a pipe, a device, a file still growing).
            bytes = try FileIO.readAll(file, limit: Self.maximumBytes + 1, path: path)
        } catch {
            throw .unreadable(path: path, detail: error.message)
        }
        guard bytes.count <= Self.maximumBytes else {
            throw .tooLarge(key: path, bytes: bytes.count, limit: Self.maximumBytes)
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw .unreadable(path: path, detail: "the file is not UTF-8 text")
        }
        return text
    }

    /// Builds and validates a manifest from Swift values (the same rules as the JSON form).
    ///
    /// - Parameter deepLinks: the deep-link declaration in NavigationRouting's JSON form, or `nil`.
    /// - Throws: ``ManifestError`` as ``init(json:)`` (with keys into the equivalent JSON form).
    public init(
        applicationID: String, title: String? = nil, screens: [ScreenDeclaration], scenes: [SceneDeclaration],
        dialogs: [String: DialogDeclaration] = [:], presentationKinds: [String] = [],
        capabilities: RendererCapabilities = RendererCapabilities(), deepLinks: JSONValue? = nil,
        freeFormScreens: Bool = false, guards: [String: GuardDeclaration] = [:]
    ) throws(ManifestError) {
        var document = ManifestDocument(
            format: Self.formatVersion, id: applicationID, title: title, screens: screens, scenes: scenes,
            dialogs: dialogs, presentationKinds: presentationKinds, capabilities: capabilities,
            deepLinks: deepLinks)
        document.freeFormScreens = freeFormScreens
        document.guards = guards
        try self.init(document: document)
    }

    init(document: ManifestDocument) throws(ManifestError) {
        let validated = try ManifestValidator(document).validate()
        applicationID = document.id
        title = document.title
        screens = document.screens
        scenes = document.scenes
        dialogs = document.dialogs
        presentationKinds = document.presentationKinds
        capabilities = document.capabilities
        deepLinks = document.deepLinks
        freeFormScreens = document.freeFormScreens
        router = validated.router
        routeConditions = validated.routeConditions
        guards = document.guards
        transitions = document.transitions
        restore = document.restore ?? RestoreDeclaration()
        renamed = document.renamed
        fallback = document.fallback
        locale = document.locale ?? "en"
        announcements = document.announcements
        funnels = document.funnels
        guardTable = GuardTable(document.guards)
        defaultSceneName = validated.defaultScene
        screensByName = Dictionary(document.screens.map { ($0.name, $0) }) { first, _ in first }
        scenesByName = Dictionary(document.scenes.map { ($0.name, $0) }) { first, _ in first }
    }

    /// The screen declaration named `name`, if any.
    public func screen(_ name: String) -> ScreenDeclaration? { screensByName[name] }

    /// The scene named `name`, if any.
    public func scene(_ name: String) -> SceneDeclaration? { scenesByName[name] }

    /// Scene names in declaration order (the Session1 `Scenes` property).
    public var sceneNames: [String] { scenes.map(\.name) }
    /// The declared screens' names, in the manifest's order (Session1 `Screens`).
    public var screenNames: [String] { screens.map(\.name) }

    /// Screen name → the title the manifest declares for it (Session1 `ScreenTitles`); screens without one are absent.
    public var screenTitles: [String: String] {
        var titles: [String: String] = [:]
        for screen in screens { if let title = screen.title { titles[screen.name] = title } }
        return titles
    }

    /// The window configuration every window of this application gets (custom presentation kinds).
    public var windowConfiguration: WindowConfiguration {
        var configuration = WindowConfiguration(
            customPresentationKinds: Set(presentationKinds), screens: screenCatalog, appearances: screenAppearances)
        configuration.transitions = transitionRules
        return configuration
    }

    /// Screen name → its declared appearance (``ScreenDeclaration/appearance``), for
    /// ``NavigationCore/WindowConfiguration/appearances``; empty when no screen declares one.
    var screenAppearances: [String: Appearance] {
        Dictionary(screens.compactMap { screen in
            screen.appearance.flatMap { $0.isEmpty ? nil : (screen.name, $0) }
        }) { first, _ in first }
    }

    /// The configuration of a window of `scene`: ``windowConfiguration`` with the scene's saved states.
    public func windowConfiguration(scene name: String) -> WindowConfiguration {
        var configuration = windowConfiguration
        configuration.savedStates = Set(scene(name)?.savedStates ?? [])
        configuration.entryRequirements = entryRequirements
        return configuration
    }

    /// Screen name → message name → handler commands (``ScreenDeclaration/handlers``).
    public var messageHandlers: [String: [String: [NavigationCommand]]] {
        Dictionary(screens.compactMap { screen in screen.handlers.map { (screen.name, $0) } }) { first, _ in first }
    }

    /// Screen name → the state its entry condition requires (``ScreenDeclaration/requires``).
    var entryRequirements: [String: String] {
        Dictionary(screens.compactMap { screen in screen.requires.map { (screen.name, $0.state) } }) { first, _ in first }
    }

    /// The declared screens for ``NavigationCore/WindowConfiguration/screens``; `nil` (anything goes) with
    /// ``freeFormScreens`` or when the manifest declares none.
    var screenCatalog: ScreenCatalog? {
        guard !freeFormScreens, !screens.isEmpty else { return nil }
        var catalog = Dictionary(screens.map {
            ($0.name, ScreenCatalog.Screen(
                required: Set($0.required), optional: Set($0.optional), initialParams: $0.initialParams ?? [:],
                identity: $0.identity ?? []))
        }) { first, _ in first }
        // The built-in browser's screen, unless the manifest declares a screen of that name.
        if catalog[PresentationSpec.browserKind] == nil {
            catalog[PresentationSpec.browserKind] = ScreenCatalog.Screen(required: ["url"])
        }
        return ScreenCatalog(catalog)
    }

    /// The renderer capabilities of `scene`'s windows (the scene's override, else the manifest's).
    public func capabilities(of scene: String) -> RendererCapabilities {
        self.scene(scene)?.capabilities ?? capabilities
    }

    /// The manifest as JSON (keys sorted); `Manifest(json: m.json()) == m`.
    public func json(pretty: Bool = true) -> String {
        var document = ManifestDocument(
            format: Self.formatVersion, id: applicationID, title: title, screens: screens, scenes: scenes,
            dialogs: dialogs, presentationKinds: presentationKinds, capabilities: capabilities, deepLinks: deepLinks)
        document.freeFormScreens = freeFormScreens
        document.guards = guards
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        // Every value here came from valid JSON or validated Swift values, so encoding cannot fail;
        // the fallback only keeps this function total.
        guard let data = try? encoder.encode(document), let text = String(data: data, encoding: .utf8) else {
            return "{}"
        }
        return text
    }

    public static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        lhs.applicationID == rhs.applicationID && lhs.title == rhs.title && lhs.screens == rhs.screens
            && lhs.scenes == rhs.scenes && lhs.dialogs == rhs.dialogs && lhs.presentationKinds == rhs.presentationKinds
            && lhs.capabilities == rhs.capabilities && lhs.deepLinks == rhs.deepLinks
            && lhs.freeFormScreens == rhs.freeFormScreens && lhs.guards == rhs.guards
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(applicationID)
        hasher.combine(screens)
        hasher.combine(scenes)
    }
}
