import NavigationCore

/// One line of the journal: a change the session made, enough to redo it on top of the last snapshot.
///
/// JSON (one object per line): `{"op":"open","window":3,"scene":"main","root":{…},"sessionVersion":5}`,
/// `{"op":"dismiss","window":3,"sessionVersion":6}`, `{"op":"batch","window":1,"version":12,"batch":[…]}`,
/// `{"op":"report","window":1,"version":13,"report":{…}}`, `{"op":"closeOnExit","window":1,"owner":":1.42"}`,
/// `{"op":"pendingDeepLink","window":1,"url":"navsession-demo://detail/42"}` (`owner`/`url` absent = cleared),
/// `{"op":"pendingCommands","window":1,"batch":[…],"screen":"account","state":"main"}` (Docs/guards.md).
enum JournalEntry: Hashable, Sendable {
    case open(window: WindowNumber, scene: String, root: ModelSpec, sessionVersion: UInt64)
    /// `closedAt`: when it closed (wall-clock ms), present when it went to the recently-closed
    /// list; replay puts it there again (lines written before have none: not remembered).
    case dismiss(window: WindowNumber, sessionVersion: UInt64, closedAt: Int64? = nil)
    case batch(window: WindowNumber, batch: [BatchCommand], version: Int)
    case report(window: WindowNumber, report: RendererReport, version: Int)
    case closeOnExit(window: WindowNumber, owner: String?)
    case pendingDeepLink(window: WindowNumber, url: String?)
    /// A pending navigation of commands (Docs/guards.md); cleared by `pendingDeepLink` without `url`.
    case pendingCommands(window: WindowNumber, batch: [BatchCommand], screen: String, state: String)
    /// A change a protection refused, re-applied from its dialog (``NavigationWindow/reapply(closing:action:batch:waiving:)``):
    /// `{"op":"reapply","window":1,"alert":9,"action":"discard","batch":[…],"waiving":[4],"version":14}`.
    case reapply(window: WindowNumber, alert: ModelID, action: String, batch: [BatchCommand], waiving: [ModelID], version: Int)
    /// A scheduled batch ran at its deadline: `{"op":"scheduledRan","window":1,"id":"toast","version":16}`.
    case scheduledRan(window: WindowNumber, id: String, version: Int)
    /// A scheduled batch was dropped without a change (it failed when it ran, or was overdue with `overdue: drop`
    /// after a restart): `{"op":"scheduledDropped","window":1,"id":"toast"}`.
    case scheduledDropped(window: WindowNumber, id: String)
    /// The window's waiting batches scheduled by `author`, a client that left the bus, lost their author (they run
    /// with the session's authority, and a close or save keeps them): `{"op":"scheduledDisowned","window":1,
    /// "author":":1.42"}`.
    case scheduledDisowned(window: WindowNumber, author: String)
    /// A recently closed window reopened under a new number:
    /// `{"op":"reopen","window":7,"closed":3,"scene":"main","sessionVersion":9}` (`closed`: the number it had).
    case reopen(window: WindowNumber, closed: WindowNumber, scene: String, sessionVersion: UInt64)
    /// The window brought back to a state it was in (an undo or a redo), that state whole, so the line redoes it
    /// alone: `{"op":"restore","window":1,"cause":{"undo":7},"snapshot":{…},"version":9}`.
    case restore(window: WindowNumber, cause: ChangeCause, snapshot: WindowSnapshot, version: Int)
    /// Windows saved under a name (Session1 `SaveSession`), their snapshots whole:
    /// `{"op":"saveSession","session":{"name":"work","savedAt":…,"windows":[…]}}` (no window: `window` 0).
    case saveSession(StoredNamedSession)
    /// A named session deleted: `{"op":"deleteSession","name":"work"}`.
    case deleteSession(name: String)
    /// A window opened from a saved snapshot (Session1 `OpenSession`), the snapshot inline so the line opens it alone:
    /// `{"op":"openSnapshot","window":8,"scene":"main","snapshot":{…},"sessionVersion":12}`.
    case openSnapshot(window: WindowNumber, scene: String, snapshot: WindowSnapshot, sessionVersion: UInt64)
    /// A model moved between windows (Session1 `MoveModel`): the source's change (a `restore`, or a `dismiss` when all it
    /// held moved) and the target's (a `restore`, or an `openSnapshot` for a new window) in one line, so a crash leaves the move whole or not made:
    /// `{"op":"move","window":1,"from":{"op":"restore",…},"to":{"op":"restore",…}}`.
    // Only this case is boxed: every other entry (one per change) stays inline.
    indirect case move(from: JournalEntry, to: JournalEntry)
    /// Windows made a group (Session1 `GroupWindows`; `[]` dissolves it): `{"op":"group","name":"work","windows":[1,3]}`.
    case group(name: String, windows: [WindowNumber])
    /// A window's policy set (Session1 `SetWindowPolicy`): `{"op":"policy","window":3,"policy":{"change":[…],"manage":[…]}}`
    /// (`policy` absent: removed).
    case policy(window: WindowNumber, policy: WindowPolicy?)
    /// A guard refused or redirected a change of the window (counted by `GetStats`):
    /// `{"op":"guardDecided","window":1,"guard":"account","verdict":"deny","time":…}`.
    case guardDecided(window: WindowNumber, guard: String, verdict: String)

    var window: WindowNumber {
        switch self {
        case .open(let window, _, _, _), .dismiss(let window, _, _), .batch(let window, _, _),
            .report(let window, _, _), .closeOnExit(let window, _), .pendingDeepLink(let window, _),
            .pendingCommands(let window, _, _, _), .reapply(let window, _, _, _, _, _), .scheduledRan(let window, _, _),
            .scheduledDropped(let window, _), .scheduledDisowned(let window, _), .reopen(let window, _, _, _), .restore(let window, _, _, _),
            .openSnapshot(let window, _, _, _), .policy(let window, _), .guardDecided(let window, _, _):
            window
        case .move(let from, _): from.window
        case .saveSession, .deleteSession, .group: 0
        }
    }
}

extension JournalEntry: Codable {
    enum CodingKeys: String, CodingKey {
        case op, window, scene, root, sessionVersion, batch, version, report, owner, url, state, screen, alert, action, waiving, id
        case closedAt, closed, cause, snapshot, session, name, from, to, windows, policy, verdict, author
        case guardName = "guard"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let op = try c.decode(String.self, forKey: .op)
        // The session's own entries name no window.
        let window = op == "saveSession" || op == "deleteSession" || op == "group"
            ? try c.decodeIfPresent(WindowNumber.self, forKey: .window) ?? 0 : try c.decode(WindowNumber.self, forKey: .window)
        switch op {
        case "open":
            self = .open(
                window: window, scene: try c.decode(String.self, forKey: .scene),
                root: try c.decode(ModelSpec.self, forKey: .root),
                sessionVersion: try c.decode(UInt64.self, forKey: .sessionVersion))
        case "dismiss":
            self = .dismiss(
                window: window, sessionVersion: try c.decode(UInt64.self, forKey: .sessionVersion),
                closedAt: try c.decodeIfPresent(Int64.self, forKey: .closedAt))
        case "batch":
            self = .batch(
                window: window, batch: try c.decode([BatchCommand].self, forKey: .batch),
                version: try c.decode(Int.self, forKey: .version))
        case "report":
            self = .report(
                window: window, report: try c.decode(RendererReport.self, forKey: .report),
                version: try c.decode(Int.self, forKey: .version))
        case "guardDecided":
            self = .guardDecided(
                window: window, guard: try c.decode(String.self, forKey: .guardName), verdict: try c.decode(String.self, forKey: .verdict))
        case "policy":
            self = .policy(window: window, policy: try c.decodeIfPresent(WindowPolicy.self, forKey: .policy))
        case "closeOnExit":
            self = .closeOnExit(window: window, owner: try c.decodeIfPresent(String.self, forKey: .owner))
        case "pendingDeepLink":
            self = .pendingDeepLink(window: window, url: try c.decodeIfPresent(String.self, forKey: .url))
        case "pendingCommands":
            self = .pendingCommands(
                window: window, batch: try c.decode([BatchCommand].self, forKey: .batch),
                screen: try c.decode(String.self, forKey: .screen), state: try c.decode(String.self, forKey: .state))
        case "reapply":
            self = .reapply(
                window: window, alert: try c.decode(ModelID.self, forKey: .alert), action: try c.decode(String.self, forKey: .action),
                batch: try c.decode([BatchCommand].self, forKey: .batch), waiving: try c.decode([ModelID].self, forKey: .waiving),
                version: try c.decode(Int.self, forKey: .version))
        case "scheduledRan":
            self = .scheduledRan(
                window: window, id: try c.decode(String.self, forKey: .id), version: try c.decode(Int.self, forKey: .version))
        case "scheduledDropped":
            self = .scheduledDropped(window: window, id: try c.decode(String.self, forKey: .id))
        case "scheduledDisowned":
            self = .scheduledDisowned(window: window, author: try c.decode(String.self, forKey: .author))
        case "reopen":
            self = .reopen(
                window: window, closed: try c.decode(WindowNumber.self, forKey: .closed),
                scene: try c.decode(String.self, forKey: .scene),
                sessionVersion: try c.decode(UInt64.self, forKey: .sessionVersion))
        case "saveSession":
            self = .saveSession(try c.decode(StoredNamedSession.self, forKey: .session))
        case "deleteSession":
            self = .deleteSession(name: try c.decode(String.self, forKey: .name))
        case "group":
            self = .group(name: try c.decode(String.self, forKey: .name), windows: try c.decode([WindowNumber].self, forKey: .windows))
        case "openSnapshot":
            self = .openSnapshot(
                window: window, scene: try c.decode(String.self, forKey: .scene),
                snapshot: try c.decode(WindowSnapshot.self, forKey: .snapshot),
                sessionVersion: try c.decode(UInt64.self, forKey: .sessionVersion))
        case "move":
            let from = try c.decode(JournalEntry.self, forKey: .from)
            let to = try c.decode(JournalEntry.self, forKey: .to)
            for part in [from, to] {
                switch part {
                case .restore, .openSnapshot, .dismiss: continue
                default:
                    throw DecodingError.dataCorruptedError(
                        forKey: .to, in: c, debugDescription: "a move holds a restore or dismiss and a restore or openSnapshot")
                }
            }
            self = .move(from: from, to: to)
        case "restore":
            self = .restore(
                window: window, cause: try c.decode(ChangeCause.self, forKey: .cause),
                snapshot: try c.decode(WindowSnapshot.self, forKey: .snapshot), version: try c.decode(Int.self, forKey: .version))
        default:
            throw DecodingError.dataCorruptedError(forKey: .op, in: c, debugDescription: "unknown journal op '\(op)'")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .saveSession, .deleteSession, .group: break
        default: try c.encode(window, forKey: .window)
        }
        switch self {
        case .open(_, let scene, let root, let sessionVersion):
            try c.encode("open", forKey: .op)
            try c.encode(scene, forKey: .scene)
            try c.encode(root, forKey: .root)
            try c.encode(sessionVersion, forKey: .sessionVersion)
        case .dismiss(_, let sessionVersion, let closedAt):
            try c.encode("dismiss", forKey: .op)
            try c.encode(sessionVersion, forKey: .sessionVersion)
            try c.encodeIfPresent(closedAt, forKey: .closedAt)
        case .batch(_, let batch, let version):
            try c.encode("batch", forKey: .op)
            try c.encode(batch, forKey: .batch)
            try c.encode(version, forKey: .version)
        case .report(_, let report, let version):
            try c.encode("report", forKey: .op)
            try c.encode(report, forKey: .report)
            try c.encode(version, forKey: .version)
        case .guardDecided(_, let name, let verdict):
            try c.encode("guardDecided", forKey: .op)
            try c.encode(name, forKey: .guardName)
            try c.encode(verdict, forKey: .verdict)
        case .policy(_, let policy):
            try c.encode("policy", forKey: .op)
            try c.encodeIfPresent(policy, forKey: .policy)
        case .closeOnExit(_, let owner):
            try c.encode("closeOnExit", forKey: .op)
            try c.encodeIfPresent(owner, forKey: .owner)
        case .pendingDeepLink(_, let url):
            try c.encode("pendingDeepLink", forKey: .op)
            try c.encodeIfPresent(url, forKey: .url)
        case .pendingCommands(_, let batch, let screen, let state):
            try c.encode("pendingCommands", forKey: .op)
            try c.encode(batch, forKey: .batch)
            try c.encode(screen, forKey: .screen)
            try c.encode(state, forKey: .state)
        case .reapply(_, let alert, let action, let batch, let waiving, let version):
            try c.encode("reapply", forKey: .op)
            try c.encode(alert, forKey: .alert)
            try c.encode(action, forKey: .action)
            try c.encode(batch, forKey: .batch)
            try c.encode(waiving, forKey: .waiving)
            try c.encode(version, forKey: .version)
        case .scheduledRan(_, let id, let version):
            try c.encode("scheduledRan", forKey: .op)
            try c.encode(id, forKey: .id)
            try c.encode(version, forKey: .version)
        case .scheduledDropped(_, let id):
            try c.encode("scheduledDropped", forKey: .op)
            try c.encode(id, forKey: .id)
        case .scheduledDisowned(_, let author):
            try c.encode("scheduledDisowned", forKey: .op)
            try c.encode(author, forKey: .author)
        case .reopen(_, let closed, let scene, let sessionVersion):
            try c.encode("reopen", forKey: .op)
            try c.encode(closed, forKey: .closed)
            try c.encode(scene, forKey: .scene)
            try c.encode(sessionVersion, forKey: .sessionVersion)
        case .saveSession(let session):
            try c.encode("saveSession", forKey: .op)
            try c.encode(session, forKey: .session)
        case .deleteSession(let name):
            try c.encode("deleteSession", forKey: .op)
            try c.encode(name, forKey: .name)
        case .group(let name, let windows):
            try c.encode("group", forKey: .op)
            try c.encode(name, forKey: .name)
            try c.encode(windows, forKey: .windows)
        case .openSnapshot(_, let scene, let snapshot, let sessionVersion):
            try c.encode("openSnapshot", forKey: .op)
            try c.encode(scene, forKey: .scene)
            try c.encode(snapshot, forKey: .snapshot)
            try c.encode(sessionVersion, forKey: .sessionVersion)
        case .move(let from, let to):
            try c.encode("move", forKey: .op)
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case .restore(_, let cause, let snapshot, let version):
            try c.encode("restore", forKey: .op)
            try c.encode(cause, forKey: .cause)
            try c.encode(snapshot, forKey: .snapshot)
            try c.encode(version, forKey: .version)
        }
    }
}

/// The first line of a journal file: which application and snapshot generation it continues.
struct JournalHeader: Codable, Hashable {
    static let formatName = "navsession-journal"
    var format: String
    var formatVersion: Int
    var applicationID: String
    var generation: Int
}

/// Journal lines and cause JSON assembled around an already encoded batch.
///
/// Byte-identical to `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` encoding the whole
/// ``JournalEntry/batch(window:batch:version:)`` or ``ChangeCause/commands(_:)``: the encoder writes a nested
/// value the same wherever it sits, the surrounding keys are plain ASCII that sort as listed
/// (`batch` < `op` < `version` < `window`), and integers are written in decimal. Tests compare both forms.
enum JournalLine {
    /// `{"batch":<batch>,"op":"batch","version":<version>,"window":<window>}`.
    static func batch(window: WindowNumber, version: Int, encodedBatch: [UInt8]) -> [UInt8] {
        var line: [UInt8] = []
        // The keys, the version and window, and what the store adds: `,"time":` with 13 digits and the newline.
        line.reserveCapacity(encodedBatch.count + 128)
        line.append(contentsOf: #"{"batch":"#.utf8)
        line.append(contentsOf: encodedBatch)
        line.append(contentsOf: #","op":"batch","version":"#.utf8)
        DirectJSON.appendInteger(version, to: &line)
        line.append(contentsOf: #","window":"#.utf8)
        DirectJSON.appendInteger(Int(window), to: &line)
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// `{"commands":<batch>}`, the JSON of ``ChangeCause/commands(_:)``.
    /// Written into the string's own storage in one pass (three pieces joined would allocate for each).
    static func cause(encodedBatch: [UInt8]) -> String {
        String(utf8Joining: #"{"commands":"#.utf8, encodedBatch, CollectionOfOne(UInt8(ascii: "}")))
    }
}

extension JournalLine {
    /// The batch's JSON written directly for the commands renderers and scripts send most — the string-free
    /// ones (`stackDropLast`, `stackDropToRoot`, `dismiss`, `dismissJustFromPresented`, `hide`) and
    /// `stackAppend` of plain screens — when every text in it is ASCII; else `nil` (use `JSONEncoder`).
    ///
    /// The output is exactly `JSONEncoder`'s (`[.sortedKeys, .withoutEscapingSlashes]`), without its cost
    /// (tests compare them on random input, and `DirectJSONDriftTests` list the fields it writes): for ASCII keys
    /// the sorted order is byte order, and strings are escaped by ``JSONString``'s one rule, the encoder's.
    /// Non-ASCII text is left to `JSONEncoder`, whose key order there is Unicode's, not the bytes'.
    static func encodeDirect(_ batch: [BatchCommand]) -> [UInt8]? {
        var out: [UInt8] = []
        // A push of a screen with a parameter or two and its keys: ≈ 100 bytes.
        out.reserveCapacity(128 * batch.count + 2)
        var array = DirectJSON.Array(&out)
        for entry in batch {
            array.element(&out)
            guard append(entry, to: &out) else { return nil }
        }
        array.close(&out)
        return out
    }

    /// One batch entry; sorted keys: `animated` < `command` < `count` < `from` < `models` < `tab`.
    private static func append(_ entry: BatchCommand, to out: inout [UInt8]) -> Bool {
        let name: String
        var count: Int?
        var models: [StackElementSpec]?
        var tab: String?
        switch entry.command {
        case .stackDropLast(let value):
            name = "stackDropLast"
            count = value
        case .stackDropToRoot: name = "stackDropToRoot"
        case .dismiss: name = "dismiss"
        case .dismissJustFromPresented: name = "dismissJustFromPresented"
        case .hide: name = "hide"
        case .stackAppend(let elements, singleTop: false):
            name = "stackAppend"
            models = elements
        case .tabsSelectItem(let selected):
            // Every deep link into a tab container with a reselect policy carries one.
            name = "tabsSelectItem"
            tab = selected
        default: return false
        }
        var object = DirectJSON.Object(&out)
        if !entry.animated {
            object.key("animated", &out)
            out.append(contentsOf: "false".utf8)
        }
        object.key("command", &out)
        _ = DirectJSON.appendString(name, to: &out)
        object.integer("count", count, &out)
        if let from = entry.from {
            guard case .id(let id) = from else { return false }
            object.integer("from", id.rawValue, &out)
        }
        if let models {
            object.key("models", &out)
            var array = DirectJSON.Array(&out)
            for element in models {
                array.element(&out)
                guard append(element, to: &out) else { return false }
            }
            array.close(&out)
        }
        if let tab {
            object.key("tab", &out)
            guard DirectJSON.appendString(tab, to: &out) else { return false }
        }
        object.close(&out)
        return true
    }

    /// A stack element holding a plain screen; sorted keys: `kind` < `params` < `screen` < `title` < `transition`.
    private static func append(_ element: StackElementSpec, to out: inout [UInt8]) -> Bool {
        let model = element.model
        guard case .screen = model.content, model.presented == nil, model.tag == nil else { return false }
        var object = DirectJSON.Object(&out)
        object.key("kind", &out)
        guard DirectJSON.appendString(model.kind.tag, to: &out) else { return false }
        if !model.params.isEmpty {
            object.key("params", &out)
            guard DirectJSON.appendStringDictionary(model.params, to: &out) else { return false }
        }
        object.key("screen", &out)
        guard DirectJSON.appendString(model.screen, to: &out) else { return false }
        if let title = model.title {
            object.key("title", &out)
            guard DirectJSON.appendString(title, to: &out) else { return false }
        }
        if let transition = element.transition {
            object.key("transition", &out)
            guard DirectJSON.appendString(transition, to: &out) else { return false }
        }
        object.close(&out)
        return true
    }
}

