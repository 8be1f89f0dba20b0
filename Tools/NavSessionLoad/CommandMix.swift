import DBusTestSupport
import Foundation
import NavigationCore

/// The commands a client sends, drawn from a seeded generator: pushes of the demo's declared screens,
/// pops, presents and dismisses, tab selections and `Apply` batches.
///
/// Pops and dismisses slightly outweigh pushes and presents, and batches drop stacks to their root, so
/// stacks and presentation chains stay short (a known daemon issue makes very large requests unsafe).
struct CommandMix {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The setup batch of a `waiting` window (a plain screen): a full-screen cover holding tabs of two
    /// stacks, so the window has stacks to push on and tabs to select. Sent again when a dismiss took it away.
    static let coverWithTabs: String = encode([
        BatchCommand(.present(.fullScreenCover(.tabs([
            TabSpec(id: "home", title: "Home", model: .stacked(.screen("home"))),
            TabSpec(id: "settings", title: "Settings", model: .stacked(.screen("settings"))),
        ], selected: "home"))))
    ])

    /// A random number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// A random window choice in 0..<100, for the caller's own split.
    mutating func percent() -> Int { int(0...99) }

    mutating func next() -> LoadCommand {
        let roll = percent()
        switch roll {
        case 0..<22:
            let screen = screenToPush()
            return .stackAppend(screen: screen.name, params: screen.params)
        case 22..<46: return .stackDropLast(count: int(0...4) == 0 ? 2 : 1)
        case 46..<53:
            let kinds = ["sheet", "sheet+stack", "cover+stack", "popover", "popover+stack"]
            let screen = screenToPush()
            return .present(kind: kinds[int(0...kinds.count - 1)], screen: screen.name, params: screen.params)
        case 53..<55: return .presentAlert(title: "Saved", message: "All done", actions: ["ok:OK:cancel"])
        case 55..<68: return .dismiss
        case 68..<78: return .tabsSelectItem(tab: int(0...1) == 0 ? "home" : "settings")
        default: return .apply(batchJSON: batch())
        }
    }

    /// A declared screen with its required parameters (and sometimes an optional one).
    private mutating func screenToPush() -> (name: String, params: [String: String]) {
        switch int(0...5) {
        case 0: return ("detail", int(0...3) == 0 ? ["id": "\(int(1...999))", "edit": "true"] : ["id": "\(int(1...999))"])
        case 1: return ("editor", ["id": "\(int(1...999))"])
        case 2: return ("profile", int(0...1) == 0 ? [:] : ["edit": "false"])
        case 3: return ("about", [:])
        case 4: return ("settings", [:])
        default: return ("home", [:])
        }
    }

    private mutating func batch() -> String {
        switch int(0...5) {
        case 0:
            return Self.encode([
                BatchCommand(.stackAppend(.screen("detail", params: ["id": "\(int(1...999))"]))),
                BatchCommand(.stackAppend(.screen("about"))),
            ])
        case 1:
            return Self.encode([BatchCommand(.stackDropToRoot)])
        case 2:
            return Self.encode([
                BatchCommand(.tabsSelectItem(int(0...1) == 0 ? "home" : "settings")),
                BatchCommand(.stackAppend(.screen("profile", params: ["edit": "true"]))),
            ])
        case 3:
            return Self.encode([
                BatchCommand(.present(.sheet(.stacked(.screen("editor", params: ["id": "\(int(1...999))"]))))),
                BatchCommand(.stackAppend(.screen("detail", params: ["id": "\(int(1...999))"]))),
            ])
        case 4:
            return Self.encode([BatchCommand(.dismiss), BatchCommand(.dismiss)])
        default:
            return Self.encode([BatchCommand(.stackDropLast(3))])
        }
    }

    static func encode(_ batch: [BatchCommand]) -> String {
        JSONOutput.string(batch, fallback: "[]")
    }
}
