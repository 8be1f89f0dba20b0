import ArgumentParser
import FoundationEssentials
import Glibc
import NavSessionClient
import NavigationCore
import ProcessSupport

/// `navsessionctl trace export WINDOW|--all` and `navsessionctl trace replay FILE`
/// (Docs/persistence.md, "Traces"). One command with an action word, so it parses directly like the others.
struct TraceCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Export a window's recorded changes as a trace, or replay a trace on a fresh daemon and compare.",
        discussion: """
            `trace export WINDOW > trace.json` prints the window's trace (Window1.ExportTrace); `trace export --all` \
            a JSON array of every open window's. `trace replay FILE` ('-' for standard input) opens each traced \
            window again (its scene and params) on the daemon — a fresh one — checks its state equals the trace's \
            initial state, applies each change's cause (commands with Apply, reports with Report*) and compares the \
            version, the state after it and (at the end, from the new window's own trace) the steps. Prints \
            `identical: N windows, M changes`, or the first difference and exits 1.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "export: every open window, as a JSON array of traces.") var all = false

    @Argument(help: "export or replay.")
    var action: String

    @Argument(help: "export: a window number or object path; replay: the trace file.")
    var target: String?

    func validate() throws {
        switch action {
        case "export":
            guard (target == nil) == all else { throw ValidationError("trace export takes a WINDOW or --all (one of them)") }
            if let target, WindowArgument(argument: target) == nil { throw ValidationError("'\(target)' is not a window") }
        case "replay":
            guard target != nil, !all else { throw ValidationError("trace replay takes a FILE (and no --all)") }
        default:
            throw ValidationError("unknown trace action '\(action)'; expected export or replay")
        }
    }

    func run() async throws {
        if action == "export" { try await export() } else { try await replay(file: target ?? "-") }
    }

    private func export() async throws {
        let window = target.flatMap(WindowArgument.init(argument:))
        try await reportingFailures {
            let text = try await withClient { client in
                if let window { return try await windowProxy(window, of: client).traceJSON() }
                var traces: [String] = []
                for proxy in try await client.session.listWindows() { traces.append(try await proxy.traceJSON()) }
                return "[" + traces.joined(separator: ",") + "]"
            }
            StandardOutput.line(text)
        }
    }

    struct Trace: Decodable {
        var format: String
        var applicationID: String
        var window: Int
        var scene: String
        var params: [String: String]
        var initial: Point
        var changes: [Change]
    }

    struct Point: Decodable {
        var version: Int
        var state: JSONValue
    }

    struct Change: Decodable {
        var version: Int
        var cause: ChangeCause
        var steps: JSONValue
        var state: JSONValue
    }

    struct Difference: Error, CustomStringConvertible {
        var description: String
    }

    private func replay(file: String) async throws {
        let data: Data
        do {
            data = Data(file == "-" ? try StandardStream.readAll(from: STDIN_FILENO) : try StandardStream.readFile(file))
        } catch {
            throw ValidationError("cannot read \(file): \(error)")
        }
        let traces: [Trace]
        do {
            if data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "[") {
                traces = try JSONDecoder().decode([Trace].self, from: data)
            } else {
                traces = [try JSONDecoder().decode(Trace.self, from: data)]
            }
        } catch {
            throw ValidationError("\(file) is not a trace (navsessionctl trace export): \(error)")
        }
        for trace in traces where trace.format != "navsession-trace" {
            throw ValidationError("\(file): unknown format '\(trace.format)'")
        }
        var failure: Difference?
        try await reportingFailures {
            failure = try await withClient { client -> Difference? in
                var changes = 0
                for trace in traces {
                    do {
                        try await replay(trace, on: client)
                    } catch let difference as Difference {
                        return difference
                    }
                    changes += trace.changes.count
                }
                StandardOutput.line("identical: \(traces.count) window\(traces.count == 1 ? "" : "s"), \(changes) change\(changes == 1 ? "" : "s")")
                return nil
            }
        }
        if let failure {
            StandardError.write("\(failure.description)\n")
            throw ExitCode.failure
        }
    }

    private func replay(_ trace: Trace, on client: NavSessionClient) async throws {
        let window = try await client.session.openWindow(scene: trace.scene, params: trace.params)
        let label = "window \(trace.window) (replayed as \(window.path))"
        let opened = try await window.version
        guard opened == UInt64(clamping: trace.initial.version) else {
            throw Difference(
                description: "\(label): the window opened at version \(opened), the trace starts at \(trace.initial.version) "
                    + "(replay on a fresh daemon, and a trace that starts at its window's opening)")
        }
        // Mark owners and batch authors are unique bus names: the recording's clients are this replay's one client.
        var names = ClientNames()
        try compare(
            try await state(of: window), trace.initial.state, "\(label), initial state (version \(trace.initial.version))",
            names: &names)
        var previous = trace.initial.state
        for (index, change) in trace.changes.enumerated() {
            let at = "\(label), change \(index + 1) (version \(change.version))"
            // Scheduled batches the recording dropped before this change (they failed at their deadline): run now,
            // they fail and are dropped here too.
            for id in Self.droppedBefore(change, previous: previous) {
                do {
                    let version = try await window.runScheduled(id)
                    throw Difference(
                        description: "\(at): scheduled batch '\(id)' was dropped in the recording (it failed), but ran "
                            + "in the replay (version \(version))")
                } catch is NavSessionError {}
            }
            let version: UInt64
            do {
                version = try await apply(change.cause, to: window)
            } catch let error as NavSessionError {
                throw Difference(description: "\(at): the cause failed: \(error)")
            }
            previous = change.state
            guard version == UInt64(clamping: change.version) else {
                throw Difference(description: "\(at): reached version \(version), recorded \(change.version)")
            }
            try compare(try await state(of: window), change.state, "\(at), state", names: &names)
        }
        // The steps as the fresh daemon planned them, from its own trace of the new window.
        let replayed = try JSONDecoder().decode(Trace.self, from: Data(try await window.traceJSON().utf8))
        for (recorded, got) in zip(trace.changes, replayed.changes.suffix(trace.changes.count)) {
            try compare(got.steps, recorded.steps, "\(label), change at version \(recorded.version), steps", names: &names)
        }
    }

    private func state(of window: WindowProxy) async throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(try await window.getStateJSON().utf8))
    }

    /// How far ahead a replayed `schedule` is put: its recorded deadline has passed, and the replay runs it
    /// (`RunScheduled`) where the recording ran it, never by the clock.
    static let replayedScheduleDelayMs = 3_600_000

    /// `batch` with each `schedule`'s deadline an hour away (compared through ``ClientNames`` like owners).
    static func deferringSchedules(_ batch: [BatchCommand]) -> [BatchCommand] {
        batch.map { entry in
            guard case .schedule(var spec) = entry.command else { return entry }
            spec.deadline = nil
            spec.afterMs = replayedScheduleDelayMs
            var deferred = entry
            deferred.command = .schedule(spec)
            return deferred
        }
    }

    /// The scheduled batches the recording dropped without a change before `change` (a batch that failed at its
    /// deadline): waiting in `previous`, gone after `change`, and neither run, cancelled nor finished with its
    /// model by `change` itself.
    static func droppedBefore(_ change: Change, previous: JSONValue) -> [String] {
        func scheduled(_ state: JSONValue) -> [(id: String, model: Int)] {
            guard case .object(let object) = state, case .array(let entries)? = object["scheduled"] else { return [] }
            return entries.compactMap { entry in
                guard case .object(let fields) = entry, case .string(let id)? = fields["id"] else { return nil }
                if case .number(let model)? = fields["model"] { return (id, Int(model)) }
                return (id, 0)
            }
        }
        func models(_ state: JSONValue) -> Set<Int> {
            guard case .object(let object) = state, case .array(let models)? = object["models"] else { return [] }
            return Set(models.compactMap { model -> Int? in
                guard case .object(let fields) = model, case .number(let id)? = fields["id"] else { return nil }
                return Int(id)
            })
        }
        let after = Set(scheduled(change.state).map(\.id))
        let alive = models(change.state)
        var explained: Set<String> = []
        switch change.cause {
        case .scheduled(let id, _): explained.insert(id)
        case .commands(let batch):
            for entry in batch { if case .cancelScheduled(let id) = entry.command { explained.insert(id) } }
        default: break
        }
        return scheduled(previous).filter { !after.contains($0.id) && !explained.contains($0.id) && alive.contains($0.model) }
            .map(\.id)
    }

    private func apply(_ cause: ChangeCause, to window: WindowProxy) async throws -> UInt64 {
        switch cause {
        case .commands(let batch): return try await window.apply(Self.deferringSchedules(batch)).version
        case .report(let report):
            switch report {
            case .poppedTo(let stack, let index): return try await window.reportPopped(stack: stack, index: UInt32(clamping: index))
            case .dismissedInteractively(let model): return try await window.reportDismissed(model)
            case .selectedTab(let tabs, let tab): return try await window.reportTabSelected(tabs: tabs, tab: tab)
            case .alertActionChosen(let alert, let action): return try await window.reportActionChosen(alert, action: action)
            case .selectedChild(let container, let child): return try await window.reportChildSelected(container: container, child: child)
            case .collapsed(let split, let collapsed): return try await window.reportCollapsed(split: split, collapsed: collapsed)
            case .windowClosed: throw Difference(description: "a windowClosed report ends the window; nothing to replay")
            }
        case .scheduled(let id, _):
            // Where the recording ran it, not by the clock.
            return try await window.runScheduled(id)
        case .setState:
            throw Difference(description: "a SetState change is not replayed (its models get fresh ids)")
        case .undo: return try await window.undo()
        case .redo: return try await window.redo()
        case .moved:
            throw Difference(description: "a move between windows is not replayed in one window")
        case .reloaded:
            throw Difference(description: "a manifest reload is not replayed")
        }
    }

    /// The recorded clients' unique names and the replaying client's: each recorded name stands for the name that
    /// first appeared in its place (the replay's one client stands for every client of the recording).
    struct ClientNames {
        private var replayedFor: [String: String] = [:]

        /// Whether `got` may stand in the place of `recorded` (a unique name, `:1.2`, or a schedule's
        /// `deadline N`), remembering the pair.
        mutating func matches(_ got: String, _ recorded: String) -> Bool {
            let mapped = (got.hasPrefix(":") && recorded.hasPrefix(":"))
                || (got.hasPrefix("deadline ") && recorded.hasPrefix("deadline "))
            guard mapped else { return got == recorded }
            if let known = replayedFor[recorded] { return known == got }
            replayedFor[recorded] = got
            return true
        }
    }

    /// The keys whose values are clients' unique bus names (a mark's owner, a scheduled batch's author).
    private static let clientNameKeys: Set<String> = ["owner", "author"]

    /// Throws the first difference between `got` and `recorded`, with its JSON path; clients' unique names (under
    /// ``clientNameKeys``) compare through `names`.
    private func compare(
        _ got: JSONValue, _ recorded: JSONValue, _ what: String, path: String = "$", key: String = "",
        names: inout ClientNames
    ) throws {
        switch (got, recorded) {
        case (.object(let a), .object(let b)):
            for key in Set(a.keys).union(b.keys).sorted() {
                try compare(a[key] ?? .null, b[key] ?? .null, what, path: path + "." + key, key: key, names: &names)
            }
        case (.array(let a), .array(let b)):
            guard a.count == b.count else {
                throw Difference(description: "\(what) differs at \(path): \(a.count) elements replayed, \(b.count) recorded")
            }
            for (index, (x, y)) in zip(a, b).enumerated() {
                try compare(x, y, what, path: path + "[\(index)]", key: key, names: &names)
            }
        case (.number(let a), .number(let b)) where key == "deadline":
            // A replayed schedule's deadline is the replay's (``deferringSchedules``): each recorded deadline stands
            // for the one replayed in its place.
            guard names.matches("deadline \(a)", "deadline \(b)") else {
                throw Difference(description: "\(what) differs at \(path): replayed deadline \(a) where \(b) was replayed otherwise")
            }
        case (.string(let a), .string(let b)) where Self.clientNameKeys.contains(key):
            guard names.matches(a, b) else {
                throw Difference(
                    description: "\(what) differs at \(path): replayed client \(a), where the recording's \(b) was "
                        + "replayed by another name before")
            }
        default:
            guard got == recorded else {
                throw Difference(
                    description: "\(what) differs at \(path): replayed \(got.canonicalText), recorded \(recorded.canonicalText)")
            }
        }
    }
}

extension TraceCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("all") { $0.all = $1 }, .positional { $0.action = $1 }, .optional { $0.target = $1 })
}
