import DBusKit
import Foundation
import Logging
import NavigationCore
import NavigationRouting
import NavigationSession

/// The session the service serves: windows by number, scenes, deep links, effects, persistence.
///
/// Temporary stand-in for NavigationSession's `Session` (not written yet). Not `Sendable`: the service
/// keeps it inside a `Mutex` and every operation runs synchronously under that lock, returning
/// `Sendable` results plus the ``SessionEvent``s the bus must announce.
final class SessionCore {
    /// The most windows open at once (`LimitsExceeded` beyond).
    static let maximumWindows = 256

    let manifest: Manifest
    private let journal: SessionJournal?
    private let logger: Logger
    private(set) var entries: [Int: WindowEntry] = [:]
    private(set) var order: [Int] = []
    private(set) var nextNumber = 1
    private(set) var version: UInt64 = 0
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Restores the session from `stateDirectory` (if any) and compacts its journal.
    init(manifest: Manifest, stateDirectory: String?, logger: Logger) throws(ServiceError) {
        self.manifest = manifest
        self.logger = logger
        guard let stateDirectory else {
            journal = nil
            return
        }
        let journal = try SessionJournal(directory: stateDirectory, logger: logger)
        let restored = journal.restore(configuration: manifest.windowConfiguration)
        for (number, scene, window) in restored.windows {
            let properties = WindowProperties(window: window, scene: scene, manifest: manifest)
            entries[number] = WindowEntry(number: number, scene: scene, window: window, properties: properties)
            order.append(number)
        }
        nextNumber = restored.nextNumber
        version = restored.version
        try journal.compact(windows: restored.windows, nextNumber: nextNumber, version: version)
        self.journal = journal
    }

    // MARK: Windows

    /// Opens a window of `scene` (or returns the open one of a single-instance scene).
    func openWindow(scene name: String, params: [String: String]) throws(ServiceError) -> (Int, [SessionEvent]) {
        guard let scene = manifest.scene(name) else { throw .unknownScene(name) }
        if scene.instances == .single, let existing = order.first(where: { entries[$0]?.scene == name }) {
            return (existing, [])
        }
        guard entries.count < Self.maximumWindows else { throw .tooManyWindows(limit: Self.maximumWindows) }
        guard var root = scene.rootStructure else { throw .unknownScene(name) }
        try applyParameters(params, to: &root)
        let window: NavigationWindow
        do {
            window = try NavigationWindow(root: root, configuration: manifest.windowConfiguration)
        } catch {
            throw .invalidArguments("scene '\(name)' cannot be built: \(ErrorMapping.busError(for: error).message)")
        }
        let number = nextNumber
        try journal?.recordOpen(number: number, scene: name, window: window)
        nextNumber += 1
        version += 1
        let properties = WindowProperties(window: window, scene: name, manifest: manifest)
        entries[number] = WindowEntry(number: number, scene: name, window: window, properties: properties)
        order.append(number)
        return (number, [.opened(number)])
    }

    /// Closes window `number`.
    func dismissWindow(_ number: Int) throws(ServiceError) -> [SessionEvent] {
        guard entries[number] != nil else { throw .unknownWindow(String(number)) }
        try journal?.recordClose(number: number)
        entries[number] = nil
        order.removeAll { $0 == number }
        version += 1
        return [.closed(number)]
    }

    /// The window `number`, or `unknownWindow`.
    func entry(_ number: Int) throws(ServiceError) -> WindowEntry {
        guard let entry = entries[number] else { throw .unknownWindow(String(number)) }
        return entry
    }

    /// Windows whose close-on-exit owner is `owner`.
    func windows(ownedBy owner: String) -> [Int] {
        order.filter { entries[$0]?.closeOnExitOwner == owner }
    }

    /// Merges `params` into the first screen of `spec` (descending switched/stack/tabs), validating
    /// them against the manifest's declaration of that screen.
    private func applyParameters(_ params: [String: String], to spec: inout ModelSpec) throws(ServiceError) {
        switch spec.content {
        case .switched(var inner):
            try applyParameters(params, to: &inner)
            spec.content = .switched(inner)
        case .stack(var path, let hides) where !path.isEmpty:
            try applyParameters(params, to: &path[0].model)
            spec.content = .stack(path: path, hidesTabBarWhenNotAtRoot: hides)
        case .tabs(var tabs, let selected) where !tabs.isEmpty:
            let index = tabs.firstIndex { $0.id == selected } ?? 0
            try applyParameters(params, to: &tabs[index].model)
            spec.content = .tabs(tabs, selected: selected)
        default:
            spec.params.merge(params) { _, new in new }
            try validate(screen: spec.screen, params: spec.params)
        }
    }

    /// Checks `params` against the manifest's declaration of `screen` (undeclared screens: anything goes).
    func validate(screen: String, params: [String: String]) throws(ServiceError) {
        guard let declaration = manifest.screen(screen) else { return }
        if let missing = declaration.required.first(where: { params[$0] == nil }) {
            throw .missingParameter(screen: screen, parameter: missing)
        }
        let known = Set(declaration.required).union(declaration.optional)
        if let unknown = params.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidArguments("screen '\(screen)' has no parameter '\(unknown)'")
        }
    }

    // MARK: Changes

    /// Applies `batch` to window `number` as one change, then follows its effects.
    func apply(_ batch: [BatchCommand], to number: Int) throws -> (UInt64, [SessionEvent]) {
        let entry = try entry(number)
        let expanded = batch.map { BatchCommand(expand($0.command, scene: entry.scene), from: $0.from, animated: $0.animated) }
        var events: [SessionEvent] = []
        try change(entry, into: &events) { window throws(NavigationError) in try window.apply(expanded) }
        return (entry.properties.version, events)
    }

    /// Applies a renderer report to window `number`.
    func report(_ report: RendererReport, to number: Int) throws -> (UInt64, [SessionEvent]) {
        let entry = try entry(number)
        var events: [SessionEvent] = []
        try change(entry, into: &events) { window throws(NavigationError) in try window.report(report) }
        return (entry.properties.version, events)
    }

    /// Runs one change on `entry`, journals it, and appends its events (and those of its effects and
    /// of deep links it unblocks) to `events`.
    func change(
        _ entry: WindowEntry, into events: inout [SessionEvent],
        _ body: (NavigationWindow) throws(NavigationError) -> ChangeEvent
    ) throws {
        let before = entry.properties
        let event = try body(entry.window)
        _ = entry.window.drainEffects()
        _ = entry.window.drainMessages()
        let causeJSON = (try? encoder.encode(event.cause)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        do {
            try journal?.recordChange(number: entry.number, causeJSON: causeJSON)
        } catch {
            logger.error("window \(entry.number): change \(event.version) not saved: \(error)")
        }
        let after = WindowProperties(window: entry.window, scene: entry.scene, manifest: manifest)
        entry.properties = after
        let steps = PlannedSteps.between(
            before.routes, after.routes, capabilities: manifest.capabilities(of: entry.scene).planner)
        events.append(
            .changed(
                WindowChange(
                    window: entry.number, version: after.version, causeJSON: causeJSON, animated: event.animated,
                    started: event.started.map { UInt64(clamping: $0.rawValue) },
                    finished: event.finished.map { UInt64(clamping: $0.rawValue) },
                    stepsJSON: steps.isEmpty ? "[]" : Route.json(states: steps), messages: event.messages,
                    changedProperties: after.differences(from: before))))
        for queued in event.effects {
            follow(queued.effect, from: entry.number, into: &events)
        }
        releasePendingLinks(of: entry, into: &events)
    }

    /// Carries out an effect of window `number`; failures are logged (the change itself stands).
    private func follow(_ effect: Effect, from number: Int, into events: inout [SessionEvent]) {
        do {
            switch effect {
            case .openWindow(let scene, let params):
                events += try openWindow(scene: scene, params: params).1
            case .dismissWindow(let id):
                let target = id.flatMap { Int($0.split(separator: "/").last ?? "") } ?? number
                if entries[target] != nil { events += try dismissWindow(target) }
            case .openURL(let url):
                events += try openURL(url, externalWindow: number).1
            case .trigger(let name, let payload):
                events.append(.effect(window: number, name: name, args: ["payload": payload]))
            }
        } catch {
            logger.warning("window \(number): effect \(effect) failed: \(error)")
        }
    }

    /// Rewrites `switchModel` to a plain screen named like a state of `scene` into that state's structure,
    /// also inside sequences and dialog actions.
    func expand(_ command: NavigationCommand, scene name: String) -> NavigationCommand {
        switch command {
        case .switchModel(let spec):
            if case .screen = spec.content, spec.params.isEmpty, spec.presented == nil,
                let state = manifest.scene(name)?.state(spec.screen)
            {
                return .switchModel(state)
            }
            return command
        case .sequence(let commands):
            return .sequence(commands.map { expand($0, scene: name) })
        case .present(var presentation):
            switch presentation.model.content {
            case .alert(var content):
                content.actions = content.actions.map { action in
                    var action = action
                    action.commands = action.commands.map { expand($0, scene: name) }
                    return action
                }
                presentation.model.content = .alert(content)
            case .confirmationDialog(var content):
                content.actions = content.actions.map { action in
                    var action = action
                    action.commands = action.commands.map { expand($0, scene: name) }
                    return action
                }
                presentation.model.content = .confirmationDialog(content)
            default: break
            }
            return .present(presentation)
        default:
            return command
        }
    }

    // MARK: Reading

    /// The snapshot of window `number` as JSON.
    func stateJSON(_ number: Int) throws(ServiceError) -> String {
        let window = try entry(number).window
        guard let data = try? encoder.encode(window.snapshot()) else { throw .persistenceFailed("cannot encode") }
        return String(decoding: data, as: UTF8.self)
    }
}
