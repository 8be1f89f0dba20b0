import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
@testable import NavigationCore
import NavigationSession
import Testing

/// The JSON Schemas under `schemas/` — valid draft 2020-12 with resolving `$ref`s, every document
/// a broad workload makes the daemon emit valid against its schema, every tagged example in the docs valid (and
/// accepted by the daemon's own decoders), and a sample of what the daemon refuses refused by the schemas too.
/// Validation is `scripts/validate-documents` under Debian's python3-jsonschema, one process per check.
@Suite struct SchemaTests {
    static let root = PrivateBus.repositoryRoot
    static let validator = root.appendingPathComponent("scripts/validate-documents").path

    /// Runs `scripts/validate-documents` with `arguments`.
    static func validate(_ arguments: [String]) async throws -> ToolResult {
        try await ToolRunner.run(
            "/usr/bin/python3", [validator] + arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(120))
    }

    /// Whether the schema `name` accepts `json` (written to a file of its own and validated).
    static func accepts(_ name: String, _ json: String) async throws -> ToolResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("navschema-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await validate(["file", name, file.path])
    }

    @Test func everySchemaIsValidDraft202012AndEveryRefResolves() async throws {
        let result = try await Self.validate(["schemas"])
        #expect(result.status == 0, "\(result)")
    }

    @Test func everyTaggedJSONExampleInTheDocsValidatesAndEveryOtherSaysWhy() async throws {
        let result = try await Self.validate(["docs"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("tagged JSON examples checked"), "\(result)")
    }

    @Test func theDocsTaggedManifestsBatchesAndCommandsAreAcceptedByTheDaemonsDecoders() throws {
        var checked = 0
        for (file, tag, text) in try Self.taggedExamples() {
            let data = Data(text.utf8)
            do {
                switch tag {
                case "manifest": _ = try Manifest(json: text)
                case "batch": _ = try JSONDecoder().decode([BatchCommand].self, from: data)
                case "command": _ = try JSONDecoder().decode(BatchCommand.self, from: data)
                case "window-state": _ = try JSONDecoder().decode(WindowSnapshot.self, from: data)
                case "routes": _ = try JSONDecoder().decode([Route].self, from: data)
                default: continue
                }
                checked += 1
            } catch {
                Issue.record("\(file): the \(tag) example is refused by the daemon: \(error)")
            }
        }
        #expect(checked >= 5)
    }

    /// `(file, schema name, text)` of every JSON block in Docs/*.md and README.md tagged `<!-- schema: NAME -->`.
    static func taggedExamples() throws -> [(String, String, String)] {
        let docs = root.appendingPathComponent("Docs")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .map { docs.appendingPathComponent($0) } + [root.appendingPathComponent("README.md")]
        var found: [(String, String, String)] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index + 1 < lines.count {
                defer { index += 1 }
                let line = lines[index].trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix("<!-- schema: "), line.hasSuffix("-->"), lines[index + 1] == "```json" else { continue }
                let tag = line.dropFirst("<!-- schema: ".count).dropLast(3).trimmingCharacters(in: .whitespaces)
                guard let end = lines[(index + 2)...].firstIndex(of: "```") else { continue }
                found.append((file.lastPathComponent, tag, lines[(index + 2)..<end].joined(separator: "\n")))
            }
        }
        return found
    }

    /// What scripts/generate-schemas writes besides schemas/.
    static let generatedTables = [
        "Sources/NavigationCore/Commands/NavigationCommand+Fields.generated.swift",
        "Tools/NavSessionFuzz/CommandShape.generated.swift",
        "python/navsession/_commands_generated.py",
    ]

    @Test func theSchemasAreWhatScriptsGenerateSchemasWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navschemas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tables = directory.appendingPathComponent("tables")
        let schemasOut = directory.appendingPathComponent("schemas")
        try FileManager.default.createDirectory(at: schemasOut, withIntermediateDirectories: true)
        let result = try await ToolRunner.run(
            "/usr/bin/python3", [Self.root.appendingPathComponent("scripts/generate-schemas").path, schemasOut.path, tables.path],
            environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        // The tables the command declarations make: the daemon's names and keys, the fuzzer's shapes, Python's helpers.
        for path in Self.generatedTables {
            let generated = try Data(contentsOf: tables.appendingPathComponent(path))
            #expect(try Data(contentsOf: Self.root.appendingPathComponent(path)) == generated, "\(path) is not scripts/generate-schemas' output")
        }
        let schemas = Self.root.appendingPathComponent("schemas")
        let committed = try FileManager.default.contentsOfDirectory(atPath: schemas.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: schemasOut.path).sorted() == committed)
        for name in committed {
            let generated = try Data(contentsOf: schemasOut.appendingPathComponent(name))
            #expect(try Data(contentsOf: schemas.appendingPathComponent(name)) == generated, "schemas/\(name) is not scripts/generate-schemas' output")
        }
    }

    @Test func theCommandSchemaHasExactlyTheDaemonsCommandsAndTheirKeys() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("schemas/command.json")))
                as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        var named: Set<String> = []
        for (key, value) in definitions where key.hasPrefix("command_") {
            let name = String(key.dropFirst("command_".count))
            named.insert(name)
            let variant = try #require(value as? [String: Any])
            let object = (variant["allOf"] as? [[String: Any]])?.first ?? variant
            let keys = Set(try #require(object["properties"] as? [String: Any]).keys)
            #expect(keys == Set(["command"] + (NavigationCommand.fields[name] ?? [])), "\(name)")
        }
        #expect(named == Set(NavigationCommand.names))
    }

    @Test func theModelSpecSchemaHasExactlyTheDaemonsKindsAndTheirKeys() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("schemas/common.json")))
                as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let common = ["kind", "screen", "params", "title", "tag", "presented", "appearance"]
        for kind in ModelSpec.kindTags {
            let variant = try #require(definitions["spec_\(kind)"] as? [String: Any], "\(kind)")
            let keys = Set(try #require(variant["properties"] as? [String: Any]).keys)
            #expect(keys == Set(common + (ModelSpec.kindFields[kind] ?? [])), "\(kind)")
        }
    }

    @Test func theDemoManifestValidatesAgainstTheManifestSchema() async throws {
        let result = try await Self.accepts("manifest", Manifest.demoJSON)
        #expect(result.status == 0, "\(result)")
    }

    @Test func everyFuzzCorpusDocumentTheDaemonAcceptsTheSchemaAcceptsToo() async throws {
        let corpus = Self.root.appendingPathComponent("Fuzz/corpus")
        let decoders: [(String, String, (String) throws -> Void)] = [
            ("batch", "batch", {
                // Apply refuses an empty batch (EmptyBatch) right after decoding it.
                if try JSONDecoder().decode([BatchCommand].self, from: Data($0.utf8)).isEmpty { throw CocoaError(.coderInvalidValue) }
            }),
            ("command", "command", { _ = try JSONDecoder().decode(BatchCommand.self, from: Data($0.utf8)) }),
            ("manifest", "manifest", { _ = try Manifest(json: $0) }),
            ("routes", "routes", { _ = try JSONDecoder().decode([Route].self, from: Data($0.utf8)) }),
            ("snapshot", "window-state", { _ = try JSONDecoder().decode(WindowSnapshot.self, from: Data($0.utf8)) }),
        ]
        var accepted = 0
        for (folder, schema, decode) in decoders {
            let directory = corpus.appendingPathComponent(folder)
            // The seeds, not the `edge-*` files made to break parsers (nulls for absent keys, which the daemon takes
            // and the schemas refuse, Docs/state-schema.md; values only a later check refuses, nesting past any limit).
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                .filter { !$0.hasPrefix("edge-") }.map { directory.appendingPathComponent($0).path }
                .filter { path in (try? decode(String(contentsOfFile: path, encoding: .utf8))) != nil }
            guard !files.isEmpty else { continue }
            accepted += files.count
            let result = try await Self.validate(["file", schema] + files)
            #expect(result.status == 0, "the daemon accepts these \(folder) documents but schemas/\(schema).json does not: \(result)")
        }
        #expect(accepted >= 30)
    }

    // MARK: What the daemon emits

    @Test func everyDocumentABroadWorkloadMakesTheDaemonEmitValidatesAgainstItsSchema() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navemitted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DaemonFixture.with(environment: [EmittedDocuments.environmentVariable: directory.path]) { fixture in
            try await Self.workload(fixture)
            try await fixture.relaunch()  // the first daemon's clean stop writes state.json
            _ = try await fixture.session("ListClosedWindows")
        }
        let result = try await Self.validate(["emitted", directory.path])
        #expect(result.status == 0, "\(result)")
        let recorded = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(recorded.contains(#"\"op\":\"reapply\""#), "the workload's re-applied change wrote no reapply journal line")
        for kind in [
            "GetState.state_json", "GetStateAt.state_json", "GetRoutes.routes_json", "GetHistory.history_json",
            "ExportTrace.trace_json", "ListClosedWindows.closed_json", "Plan.states", "Changed.cause_json",
            "Changed.steps_json", "ModelChanged.change_json", "Routes", "Protected", "journal", "state",
        ] {
            #expect(
                result.stdout.contains(" \(kind) ") || result.stdout.contains("(\(kind) "),
                "the workload emitted no \(kind): \(result.stdout)")
        }
    }

    /// Every command kind the demo supports, the renderer reports, the JSON reads and a follower, on the demo.
    static func workload(_ fixture: DaemonFixture) async throws {
        let main = try await fixture.openWindow()
        let model = try await fixture.window(main, "GetState")  // before logging in: the login state
        #expect(model.first?.string != nil)
        _ = try await fixture.logIn(main)
        let home = try await fixture.modelID(main, where: "screen", is: "home")
        _ = try await fixture.window(main, "FollowModel", [.uint64(home)])
        let batches = [
            #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"},"tag":"d1","transition":"zoom"}]}]"#,
            #"[{"command":"setParams","tag":"d1","params":{"id":"2"},"title":"Two"}]"#,
            #"[{"command":"setAppearance","model":"tag:d1","appearance":{"backButton":false,"titleDisplayMode":"inline"}}]"#,
            #"[{"command":"setRendererState","model":"tag:d1","state":{"scroll":300}},{"command":"setRendererState","model":0,"state":{"width":900}}]"#,
            #"[{"command":"protect","tag":"d1","reason":"unsaved"}]"#, #"[{"command":"unprotect","tag":"d1"}]"#,
            #"[{"command":"stackAppend","models":[{"screen":"about"},{"screen":"settings"}],"animated":false}]"#,
            #"[{"command":"bringToFront","screen":"about"}]"#, #"[{"command":"goBackTo","tag":"d1"}]"#,
            #"[{"command":"stackDropLast"},{"command":"goForward"}]"#,
            #"[{"command":"present","presentation":{"kind":"sheet","detents":["medium"],"model":{"kind":"stack","path":[{"screen":"editor","params":{"id":"1"}}]}}}]"#,
            #"[{"command":"sendMessage","name":"hello","payload":"x","to":"presenter"},{"command":"trigger","name":"toast","payload":"hi"}]"#,
            #"[{"command":"dismiss","result":{"saved":true}}]"#,
            #"[{"command":"present","presentation":{"kind":"alert","title":"Sure?","actions":[{"id":"ok","title":"OK"},{"id":"no","title":"No","role":"cancel"}]}}]"#,
            #"[{"command":"dismissJustFromPresented"},{"command":"dismissAll"}]"#,
            #"[{"command":"present","presentation":{"kind":"custom","name":"popover","model":{"screen":"about"}}},{"command":"transaction","payload":{"animation":"spring"}}]"#,
            #"[{"command":"goBack","result":"done"}]"#,
            #"[{"command":"present","presentation":{"kind":"fullScreenCover","transition":"fade","model":{"kind":"stack","path":[{"screen":"profile"}]}}}]"#,
            #"[{"command":"hide"}]"#,
            #"[{"command":"present","presentation":{"kind":"browser","url":"https://example.org/"}}]"#, #"[{"command":"dismiss"}]"#,
            #"[{"command":"show","screen":"compose","params":{"to":"ann"}}]"#, #"[{"command":"dismiss"}]"#,
            #"[{"command":"tabsSelectItem","tab":"settings"},{"command":"stackAppend","models":[{"screen":"profile"}]}]"#,
            #"[{"command":"goBackToRoot"},{"command":"tabsSelectItem","tab":"home"}]"#,
            #"[{"command":"setTabBarRule","hiddenWhenNotRoot":true,"animated":false}]"#,
            #"[{"command":"stackSetPath","path":[{"existing":"tag:d1"},{"screen":"about"}]}]"#,
            #"[{"command":"stackSetRoot","model":{"screen":"home"},"clear":false}]"#,
            #"[{"command":"stackDropToRoot"}]"#,
            #"[{"command":"setRoutes","routes":[{"style":"push","screen":"detail","params":{"id":"3"}},{"style":"sheet","screen":"editor","params":{"id":"3"},"withNavigation":true}]}]"#,
            #"[{"command":"sequence","commands":[{"command":"stackAppend","models":[{"screen":"about"}]},{"command":"stackDropLast"}]}]"#,
            #"[{"command":"schedule","afterMs":0,"id":"soon","commands":[{"command":"stackAppend","models":[{"screen":"about"}]}]}]"#,
            #"[{"command":"schedule","afterMs":600000,"id":"later","overdue":"drop","commands":[{"command":"dismiss"}]},{"command":"cancelScheduled","id":"later"}]"#,
            #"[{"command":"schedule","afterMs":600000,"id":"kept","commands":[{"command":"dismiss"}]}]"#,
            #"[{"command":"openURL","url":"navsession-demo://detail/42/edit"}]"#,
            #"[{"command":"openWindow","scene":"waiting","params":{"reason":"x"}}]"#,
            #"[{"command":"switchModel","model":{"screen":"login"},"saveState":true}]"#,
            #"[{"command":"switchModel","model":{"kind":"stack","screen":"main","path":[{"screen":"home"}]},"restoreState":true}]"#,
            #"[{"command":"clearSavedState"}]"#,
        ]
        for batch in batches {
            _ = try await fixture.window(main, "Apply", [.string(batch), .dictionary(key: .string, value: .string, [])])
        }
        // A change a mark refuses, its dialog shown instead, re-applied by the dialog's action (journal op "reapply").
        _ = try await fixture.window(main, "Apply", [
            .string(#"[{"command":"stackAppend","models":[{"screen":"about","tag":"guarded"}]},{"command":"protect","tag":"guarded","reason":"unsaved","dialog":"discardChanges"}]"#),
            .dictionary(key: .string, value: .string, []),
        ])
        let refused = await fixture.error { try await fixture.window(main, "StackDropLast", [.uint32(1)]) }
        #expect(refused?.name.rawValue == "org.navsession.Error.Prevented", "\(String(describing: refused))")
        let alert = try await fixture.modelID(main, where: "kind", is: "alert")
        _ = try await fixture.window(main, "ReportActionChosen", [.uint64(alert), .string("discard")])
        let tabs = try await fixture.modelID(main, where: "kind", is: "tabs")
        _ = try await fixture.window(main, "ReportTabSelected", [.uint64(tabs), .string("settings")])
        for read in ["GetState", "GetRoutes", "GetHistory", "ExportTrace"] { _ = try await fixture.window(main, read) }
        for property in ["Routes", "Protected"] { _ = try await fixture.windowProperty(main, property) }
        _ = try await fixture.window(main, "GetStateAt", [.uint64(1)])
        _ = try await fixture.session(
            "Plan", [.string(#"[{"style":"push","screen":"a"}]"#), .string(#"[{"style":"sheet","screen":"b","withNavigation":true}]"#),
                     .boolean(false), .boolean(false)])
        let split = try await fixture.openWindow("split")
        for batch in [
            #"[{"command":"selectChild","child":0},{"command":"setColumnVisibility","visibility":"all"}]"#,
            #"[{"command":"selectChild","container":1,"child":{"model":"tag:detail"}}]"#,
        ] {
            _ = try await fixture.window(split, "Apply", [.string(batch), .dictionary(key: .string, value: .string, [])])
        }
        _ = try await fixture.window(split, "ReportCollapsed", [.uint64(1), .boolean(true)])
        _ = try await fixture.session("DismissWindow", [.objectPath(try ObjectPath(split))])
    }

    // MARK: What the daemon refuses

    @Test func theCommandSchemaRefusesAnUnknownKeyAsTheDaemonDoes() async throws {
        let command = #"{"command":"stackAppend","models":[{"screen":"home"}],"animate":true}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(BatchCommand.self, from: Data(command.utf8)) }
        let result = try await Self.accepts("command", command)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("animate"), "\(result)")
    }

    @Test func theBatchSchemaRefusesAWrongTypeAsTheDaemonDoes() async throws {
        let batch = #"[{"command":"stackDropLast","count":"2"}]"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode([BatchCommand].self, from: Data(batch.utf8)) }
        let result = try await Self.accepts("batch", batch)
        #expect(result.status == 1, "\(result)")
    }

    @Test func theBatchSchemaRefusesAnUnknownCommandAsTheDaemonDoes() async throws {
        let batch = #"[{"command":"teleport"}]"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode([BatchCommand].self, from: Data(batch.utf8)) }
        let result = try await Self.accepts("batch", batch)
        #expect(result.status == 1, "\(result)")
    }

    @Test func theModelSpecSchemaRefusesAKeyOfAnotherKindAsTheDaemonDoes() async throws {
        let spec = #"{"screen":"home","path":[{"screen":"detail"}]}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(ModelSpec.self, from: Data(spec.utf8)) }
        let result = try await Self.accepts("model-spec", spec)
        #expect(result.status == 1, "\(result)")
    }

    @Test func theManifestSchemaRefusesAnUnknownSceneKeyAsTheDaemonDoes() async throws {
        let manifest = #"{"id":"org.example.App","screens":[{"name":"home"}],"scenes":[{"name":"main","default":true,"intialState":"x","root":{"screen":"home"}}]}"#
        #expect(throws: (any Error).self) { try Manifest(json: manifest) }
        let result = try await Self.accepts("manifest", manifest)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("intialState"), "\(result)")
    }

    @Test func theManifestAcceptsExactlyTheSchemaKeyBesidesItsOwn() throws {
        let manifest = #"{"$schema":"https://navsession.org/schemas/manifest.json","id":"org.example.App","screens":[{"name":"home"}],"scenes":[{"name":"main","default":true,"root":{"screen":"home"}}]}"#
        #expect(try Manifest(json: manifest).applicationID == "org.example.App")
        #expect(throws: (any Error).self) {
            try Manifest(json: manifest.replacingOccurrences(of: "$schema", with: "$id"))
        }
    }
}
