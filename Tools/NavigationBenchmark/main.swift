// Measures NavigationCore command throughput against graph size and memory per model.
// Run: swift run -c release navigation-benchmark
import Foundation
import NavigationCore

/// A realistic graph of about `total` models: a switched root with tabs; the selected tab holds a long
/// stack (half the models), other tabs hold shorter stacks, and one tab holds a chain of nested sheets.
func makeSpec(total: Int) -> ModelSpec {
    let longStack = max(2, total / 2)
    let sheetDepth = min(100, max(1, total / 1_000))
    let sheetStack = 5
    let remaining = max(0, total - longStack - sheetDepth * (sheetStack + 1) - 6)
    let otherTabs = max(1, min(400, remaining / 50))
    let perTab = max(1, remaining / otherTabs - 1)

    var chain = ModelSpec.stack((0..<sheetStack).map { .screen("sheet-\(sheetDepth)-\($0)") })
    for level in stride(from: sheetDepth - 1, through: 1, by: -1) {
        chain = ModelSpec.stack((0..<sheetStack).map { .screen("sheet-\(level)-\($0)") }, screen: "sheet")
            .presenting(.sheet(chain))
    }
    var tabs = [TabSpec(id: "main", title: "Main", model: .stack((0..<longStack).map { .screen("item", params: ["i": "\($0)"]) }))]
    tabs.append(TabSpec(id: "modal", title: "Modal", model: .switched(ModelSpec.screen("host").presenting(.sheet(chain)))))
    for tab in 0..<otherTabs {
        tabs.append(TabSpec(id: "t\(tab)", title: "T\(tab)", model: .stack((0..<perTab).map { .screen("s\(tab)-\($0)") })))
    }
    return .switched(.tabs(tabs, selected: "main"), screen: "app")
}

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func opsPerSecond(pairs: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Duration.seconds(1_000)
    for _ in 0..<3 {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<pairs { try body() }
        best = min(best, clock.now - start)
    }
    let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
    return Double(pairs * 2) / seconds
}

struct Row {
    var models: Int
    var pushPop: Double
    var presentDismiss: Double
    var bytesPerModel: Double
}

let pairs = 20_000
var rows: [Row] = []
// The first 10-model run only warms up caches and the allocator; it is dropped.
for (run, size) in [10, 10, 1_000, 100_000].enumerated() {
    let spec = makeSpec(total: size)
    let before = residentBytes()
    let window = try NavigationWindow(root: spec)
    let after = residentBytes()
    let models = window.modelCount
    let push = NavigationCommand.stackAppend(.screen("pushed"))
    let pushPop = try opsPerSecond(pairs: pairs) {
        try window.execute(push)
        try window.execute(.stackDropLast)
    }
    let sheet = NavigationCommand.present(.sheet(.screen("sheet")))
    let presentDismiss = try opsPerSecond(pairs: pairs) {
        try window.execute(sheet)
        try window.execute(.dismiss)
    }
    if run == 0 { continue }
    rows.append(Row(models: models, pushPop: pushPop, presentDismiss: presentDismiss,
                    bytesPerModel: Double(after - before) / Double(models)))
    _ = window.drainMessages()
}

func format(_ value: Double) -> String { String(format: "%12.0f", value) }
print("models      push/pop cmd/s  present/dismiss cmd/s  RSS bytes/model")
for row in rows {
    print(String(format: "%-10d ", row.models) + format(row.pushPop) + "  " + format(row.presentDismiss)
        + "           " + String(format: "%8.0f", row.bytesPerModel))
}
if let small = rows.first, let big = rows.last {
    print(String(format: "ratio %d/%d cost (time per command): push/pop %.2f, present/dismiss %.2f",
                 big.models, small.models, small.pushPop / big.pushPop, small.presentDismiss / big.presentDismiss))
}
