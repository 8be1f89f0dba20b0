import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `navsessionctl manifest check FILE | reload FILE`: what a new manifest would do to the running session
/// (Session1 `CheckManifest`, printed as its JSON report, or one line per window), or serving it from now on
/// (`ReloadManifest`; Docs/manifest.md, "Changing the manifest").
struct ManifestCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Check what a new manifest would do to the running session, or reload it.",
        discussion: """
            check FILE: one line per window, 'WINDOW SCENE ACTION' (keep, migrate, reset, close) followed by what \
            changes (renamed detail->item, removed draft, dropped x); --json prints CheckManifest's report. \
            reload FILE: the daemon serves FILE's manifest from now on, every window migrated; prints nothing. \
            The file is read here and sent as text: the daemon's own file is what SIGHUP reloads.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Argument(help: "check or reload.")
    var action: String

    @Argument(help: "The manifest file.")
    var file: String

    func validate() throws {
        try validateConnection()
        guard ["check", "reload"].contains(action) else {
            throw ValidationError("'\(action)' is not a manifest action: check or reload")
        }
    }

    func run() async throws {
        try await reportingFailures {
            // The daemon bounds and validates it (InvalidManifest says where); here it only has to be text.
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw ArgumentParser.ValidationError("cannot read \(file): \(error)")
            }
            try await withClient { client in
                if action == "reload" {
                    try await client.session.reloadManifest(text)
                    return
                }
                let report = try await client.session.checkManifest(text)
                guard !json else {
                    StandardOutput.line(report)
                    return
                }
                for line in Self.lines(of: report) { StandardOutput.line(line) }
            }
        }
    }

    /// `1 main migrate renamed detail->item removed draft dropped x` per window of the report.
    /// (Numbers print without a fraction.)
    static func lines(of report: String) -> [String] {
        guard case .object(let root)? = JSONValue(parsing: report), case .array(let windows)? = root["windows"] else { return [report] }
        return windows.compactMap { value -> String? in
            guard case .object(let window) = value else { return nil }
            var words = [window["window"]?.text ?? "?", window["scene"]?.text ?? "?", window["action"]?.text ?? "?"]
            for (key, label) in [("renamed", "renamed"), ("replaced", "replaced")] {
                if case .array(let items)? = window[key] {
                    for case .object(let item) in items {
                        words.append("\(label) \(item["from"]?.text ?? "?")->\(item["to"]?.text ?? "?")")
                    }
                }
            }
            if case .array(let items)? = window["removed"] {
                for case .object(let item) in items { words.append("removed \(item["screen"]?.text ?? "?")") }
            }
            if case .array(let items)? = window["params"] {
                for case .object(let item) in items {
                    if case .array(let dropped)? = item["dropped"] {
                        words.append("dropped " + dropped.compactMap(\.text).joined(separator: ","))
                    }
                }
            }
            if let reason = window["reason"]?.text { words.append("(\(reason))") }
            return words.joined(separator: " ")
        }
    }
}

extension JSONValue {
    /// A string's text, or an integer's digits; `nil` for anything else.
    fileprivate var text: String? {
        switch self {
        case .string(let text): text
        case .number(let number) where number.rounded() == number && abs(number) < 1e15: String(Int(number))
        default: nil
        }
    }
}

extension ManifestCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .positional { $0.action = $1 }, .positional { $0.file = $1 })
}
