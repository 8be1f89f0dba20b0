import ArgumentParser
import DBusKit
import Dispatch
import Glibc
import NavSessionClient
import Synchronization

/// Completion from the running daemon, as `systemctl` and `busctl` complete live objects: the
/// shell's completion script calls `navsessionctl ---completion …` (swift-argument-parser's
/// `CompletionKind.custom`), and the closures here ask the daemon named by the `--bus`/`--dest` already typed (else
/// `DBUS_SESSION_BUS_ADDRESS` and `NAVSESSION_DEST` or the demo) for window numbers, scenes and the screens of a
/// window. Each question has a short deadline; no bus, no daemon or any error gives no candidates — never an error
/// message or a hang in the user's shell. The exec commands come from ``ExecOperation/all``, without the daemon.
enum LiveCompletion {
    /// How long one completion may wait for the bus and the daemon, in all.
    static let deadline = Duration.milliseconds(1500)

    /// WINDOW: the open windows' numbers.
    static let windows = CompletionKind.custom { words, _, prefix in
        filtered(ask(words) { client in
            try await client.session.windows.compactMap(\.number).sorted().map(String.init)
        }, prefix)
    }

    /// `open-window`'s SCENE: the scenes the manifest declares.
    static let scenes = CompletionKind.custom { words, _, prefix in
        filtered(ask(words) { client in try await client.session.scenes }, prefix)
    }

    /// `exec`'s COMMAND: every exec command's name.
    static let execCommands = CompletionKind.custom { _, _, prefix in
        filtered(ExecOperation.all.map(\.name), prefix)
    }

    /// `exec`'s words: for a SCREEN, the screens the manifest declares (Session1 `Screens`), then any other screen
    /// in the window's graph (a manifest with `freeFormScreens`); for `present`'s KIND, the kinds.
    static let execWords = CompletionKind.custom { words, index, prefix in
        guard let (window, operation, position) = execPosition(words, index),
              let argument = argument(of: operation, at: position)
        else { return [] }
        switch argument {
        case .string("KIND"):
            return filtered(["sheet", "sheet+stack", "cover", "cover+stack", "custom"], prefix)
        case .string("SCREEN"), .words("SCREEN", _):
            return filtered(ask(words) { client in
                try await client.session.screens
                    + screens(inStateJSON: try await client.window(window.path.rawValue).getStateJSON())
            }, prefix)
        default:
            return []
        }
    }

    /// The candidates that start with `prefix`, without repeats, in their order.
    static func filtered(_ candidates: [String], _ prefix: String) -> [String] {
        var seen: Set<String> = []
        return candidates.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
    }

    /// The screen names in a window's state JSON (`GetState`), sorted.
    static func screens(inStateJSON json: String) -> [String] {
        Set(json.matches(of: #/"screen"\s*:\s*"([^"\\]+)"/#).map { String($0.1) }).sorted()
    }

    /// The value of `--NAME VALUE` or `--NAME=VALUE` among the words before `end` (the last one typed wins).
    static func option(_ name: String, in words: [String], before end: Int) -> String? {
        var value: String?
        var index = 0
        while index < min(end, words.count) {
            let word = words[index]
            if word == "--" { break }
            if word == "--\(name)", index + 1 < end {
                value = words[index + 1]
                index += 2
                continue
            }
            if word.hasPrefix("--\(name)=") { value = String(word.dropFirst(name.count + 3)) }
            index += 1
        }
        return value
    }

    /// For the word at `index` of an `exec` line: the window, the operation and the word's position among the
    /// operation's words (0 = the first word after COMMAND); nil when the line has no such window or operation.
    static func execPosition(_ words: [String], _ index: Int) -> (WindowArgument, ExecOperation, Int)? {
        guard let exec = words.firstIndex(of: "exec") else { return nil }
        var positionals: [String] = []
        var cursor = exec + 1
        while cursor < min(index, words.count) {
            let word = words[cursor]
            if ["--bus", "--dest", "--timeout"].contains(word) {
                cursor += 2
                continue
            }
            if !(word.hasPrefix("-") && positionals.count < 2) { positionals.append(word) }
            cursor += 1
        }
        guard positionals.count >= 2, let window = WindowArgument(argument: positionals[0]),
              let operation = ExecOperation.named(positionals[1])
        else { return nil }
        let typed = positionals.dropFirst(2).filter { !$0.hasPrefix("--") }
        return (window, operation, typed.count)
    }

    /// The positional argument of `operation` that its word number `position` fills (a rest argument takes
    /// every later word; flags and options, typed as `--…`, take none).
    static func argument(of operation: ExecOperation, at position: Int) -> ExecArgument? {
        var remaining = position
        for argument in operation.arguments {
            switch argument {
            case .flag, .option, .applyOptions: continue
            case .parameters, .words: return argument
            default:
                if remaining == 0 { return argument }
                remaining -= 1
            }
        }
        return nil
    }

    /// `question`'s answer from the daemon the typed words name, or `[]` on any failure or after ``deadline``.
    /// The completion closures are synchronous (swift-argument-parser's synchronous parse runs them on the main
    /// thread), so the main thread waits on a semaphore for a detached task: never a thread of the cooperative pool.
    static func ask(_ words: [String], _ question: @escaping @Sendable (NavSessionClient) async throws -> [String])
        -> [String]
    {
        let end = words.count
        let bus = option("bus", in: words, before: end) ?? ConnectionOption.defaultBus
        let dest = option("dest", in: words, before: end) ?? ConnectionOption.defaultDest
        // Without an address libdbus would try to autolaunch a session bus: not from a shell's TAB.
        if bus == "session", (getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) } ?? "").isEmpty {
            return []
        }
        let selection: NavSessionClient.BusSelection = switch bus {
        case "session": .session
        case "system": .system
        default: .address(bus)
        }
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            defer { done.signal() }
            guard let client = try? await NavSessionClient.connect(to: selection, applicationID: dest, timeout: deadline)
            else { return }
            answer.set((try? await question(client)) ?? [])
            await client.close()
        }
        let milliseconds = Int(deadline.components.seconds * 1000 + deadline.components.attoseconds / 1_000_000_000_000_000)
        guard done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return [] }
        return answer.value
    }

    /// The detached task's answer, handed to the waiting main thread.
    final class Answer: Sendable {
        private let candidates = Mutex<[String]>([])
        func set(_ value: [String]) { candidates.withLock { $0 = value } }
        var value: [String] { candidates.withLock { $0 } }
    }
}
