import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Introspection data reduced to what the contract fixes (comments and order of members do not matter).
struct IntrospectedNode: Equatable, CustomStringConvertible {
    struct Argument: Equatable { var name: String, type: String, direction: String }
    struct Property: Equatable { var type: String, access: String, annotations: [String: String] }
    struct InterfaceData: Equatable {
        var methods: [String: [Argument]] = [:]
        var signals: [String: [Argument]] = [:]
        var properties: [String: Property] = [:]
        var methodAnnotations: [String: [String: String]] = [:]
    }
    var interfaces: [String: InterfaceData] = [:]
    var children: [String] = []

    var description: String { "interfaces \(interfaces.keys.sorted()), children \(children)" }

    static func parse(_ xml: String) throws -> IntrospectedNode {
        let parser = XMLParser(data: Data(xml.utf8))
        let delegate = IntrospectionParser()
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        #expect(parser.parse(), "XML does not parse: \(String(describing: parser.parserError))")
        return delegate.node
    }
}

private final class IntrospectionParser: NSObject, XMLParserDelegate {
    var node = IntrospectedNode()
    private var depth = 0
    private var interface: String?
    private var method: String?
    private var signal: String?
    private var property: String?

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let name = attributes["name"] ?? ""
        switch element {
        case "node":
            depth += 1
            if depth == 2 { node.children.append(name) }
        case "interface" where depth == 1:
            interface = name
            node.interfaces[name] = IntrospectedNode.InterfaceData()
        case "method":
            method = name
            node.interfaces[interface ?? ""]?.methods[name] = []
        case "signal":
            signal = name
            node.interfaces[interface ?? ""]?.signals[name] = []
        case "property":
            property = name
            node.interfaces[interface ?? ""]?.properties[name] = .init(
                type: attributes["type"] ?? "", access: attributes["access"] ?? "", annotations: [:])
        case "arg":
            if let method {
                node.interfaces[interface ?? ""]?.methods[method]?.append(
                    .init(name: name, type: attributes["type"] ?? "", direction: attributes["direction"] ?? "in"))
            } else if let signal {
                node.interfaces[interface ?? ""]?.signals[signal]?.append(
                    .init(name: name, type: attributes["type"] ?? "", direction: attributes["direction"] ?? "out"))
            }
        case "annotation":
            let value = attributes["value"] ?? ""
            if let property {
                node.interfaces[interface ?? ""]?.properties[property]?.annotations[name] = value
            } else if let method {
                node.interfaces[interface ?? ""]?.methodAnnotations[method, default: [:]][name] = value
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "node": depth -= 1
        case "interface": interface = nil
        case "method": method = nil
        case "signal": signal = nil
        case "property": property = nil
        default: break
        }
    }
}

@Suite(.serialized) struct IntrospectionContractTests {
    static func contract(_ file: String) throws -> IntrospectedNode {
        let url = PrivateBus.repositoryRoot.appendingPathComponent("dbus/\(file)")
        return try IntrospectedNode.parse(try String(contentsOf: url, encoding: .utf8))
    }

    static func introspect(_ fixture: DaemonFixture, _ path: String) async throws -> IntrospectedNode {
        let reply = try await fixture.call(path, "org.freedesktop.DBus.Introspectable", "Introspect")
        return try IntrospectedNode.parse(try #require(reply.first?.string))
    }

    /// Compares one interface member by member so a failure names the member that differs.
    static func expectSame(
        _ served: IntrospectedNode.InterfaceData?, _ contract: IntrospectedNode.InterfaceData?, _ name: String
    ) throws {
        let served = try #require(served, "the daemon does not serve \(name)")
        let contract = try #require(contract, "the contract has no \(name)")
        #expect(served.methods.keys.sorted() == contract.methods.keys.sorted(), "\(name) methods")
        for (method, arguments) in contract.methods {
            #expect(served.methods[method] == arguments, "\(name).\(method) arguments")
        }
        #expect(served.signals.keys.sorted() == contract.signals.keys.sorted(), "\(name) signals")
        for (signal, arguments) in contract.signals {
            #expect(
                served.signals[signal]?.map { [$0.name, $0.type] } == arguments.map { [$0.name, $0.type] },
                "\(name).\(signal) arguments")
        }
        #expect(served.properties.keys.sorted() == contract.properties.keys.sorted(), "\(name) properties")
        for (property, declared) in contract.properties {
            let actual = served.properties[property]
            #expect(actual?.type == declared.type, "\(name).\(property) type")
            #expect(actual?.access == declared.access, "\(name).\(property) access")
            // "true" is the default of EmitsChangedSignal, so an absent annotation means "true".
            let emits = actual?.annotations["org.freedesktop.DBus.Property.EmitsChangedSignal"] ?? "true"
            #expect(
                emits == declared.annotations["org.freedesktop.DBus.Property.EmitsChangedSignal"] ?? "true",
                "\(name).\(property) EmitsChangedSignal")
        }
    }

    @Test func sessionObjectIntrospectionMatchesTheContract() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let served = try await Self.introspect(fixture, DaemonFixture.session)
            let contract = try Self.contract("org.navsession.Session1.xml")
            try Self.expectSame(
                served.interfaces["org.navsession.Session1"], contract.interfaces["org.navsession.Session1"],
                "org.navsession.Session1")
            for standard in [
                "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
                "org.freedesktop.DBus.ObjectManager",
            ] {
                #expect(served.interfaces[standard] != nil, "\(standard) missing: \(served)")
            }
            #expect(served.interfaces["org.freedesktop.DBus.ObjectManager"]?.methods["GetManagedObjects"] != nil)
            #expect(served.children == ["window"], "\(served)")
            let windows = try await Self.introspect(fixture, "/org/navsession/Session1/window")
            #expect(windows.children == [String(window.split(separator: "/").last ?? "")], "\(windows)")
        }
    }

    @Test func windowObjectIntrospectionMatchesTheContract() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let served = try await Self.introspect(fixture, window)
            let contract = try Self.contract("org.navsession.Window1.xml")
            try Self.expectSame(
                served.interfaces["org.navsession.Window1"], contract.interfaces["org.navsession.Window1"],
                "org.navsession.Window1")
            #expect(served.interfaces["org.freedesktop.DBus.Introspectable"] != nil, "\(served)")
            #expect(served.interfaces["org.freedesktop.DBus.Properties"] != nil, "\(served)")
            #expect(served.interfaces["org.navsession.Session1"] == nil, "\(served)")
        }
    }

    @Test func contractFilesDeclareTheDocumentedInterfaces() throws {
        let session = try Self.contract("org.navsession.Session1.xml")
        let window = try Self.contract("org.navsession.Window1.xml")
        #expect(session.interfaces["org.navsession.Session1"]?.methods.count == 24)  // ListClosedWindows, ReopenWindow, UndoCloseWindow, RefreshGuard, the named sessions, MoveModel, GroupWindows, SetWindowPolicy, GetStats, CheckManifest, ReloadManifest among them
        #expect(window.interfaces["org.navsession.Window1"]?.properties.count == 24)  // SettledVersion, SettledBy, CanGoForward, CanUndo, CanRedo, UndoLabel, Group, Prepared, VisibleModels, Renderers among them
        #expect(window.interfaces["org.navsession.Window1"]?.signals.count == 10)  // Settled, ModelChanged, Announcement, Steps among them
    }

    @Test func gdbusIntrospectListsSessionAndWindowMembers() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let session = try await fixture.run(
                "gdbus", ["introspect", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session])
            #expect(session.status == 0, "\(session)")
            for member in ["OpenWindow(", "DismissWindow(", "OpenURL(", "ListWindows(", "Apply(", "SetCloseOnExit(", "Plan("] {
                #expect(session.stdout.contains(member), "\(member) missing in \(session.stdout)")
            }
            #expect(session.stdout.contains("readonly ao Windows"), "\(session.stdout)")
            let windowResult = try await fixture.run(
                "gdbus", ["introspect", "--session", "--dest", DaemonFixture.name, "--object-path", window])
            #expect(windowResult.status == 0, "\(windowResult)")
            for member in ["StackAppend(", "ReportActionChosen(", "GetRoutes(", "Changed(", "readonly t Version"] {
                #expect(windowResult.stdout.contains(member), "\(member) missing in \(windowResult.stdout)")
            }
        }
    }

    @Test func busctlIntrospectListsWindowMembers() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.run(
                "busctl", ["--user", "introspect", "--no-pager", DaemonFixture.name, window, "org.navsession.Window1"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n")
            for (member, kind) in [
                (".StackAppend", "method"), (".Changed", "signal"), (".Version", "property"), (".SelectedTab", "property"),
            ] {
                #expect(
                    lines.contains { $0.hasPrefix(member + " ") && $0.contains(kind) }, "\(member) \(kind) in \(result.stdout)")
            }
        }
    }
}
