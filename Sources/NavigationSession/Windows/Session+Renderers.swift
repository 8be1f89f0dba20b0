import NavigationCore

/// A renderer registered on a window (Window1 `RegisterRenderer`, Docs/renderers.md): its role, what it can animate,
/// and the newest version it finished showing.
public struct RegisteredRenderer: Hashable, Sendable {
    /// What a renderer is to the window.
    public enum Role: String, Hashable, Sendable, CaseIterable {
        /// The window's own front-end: the one renderer whose reports (a pop, a dismissal, a tab selection, a
        /// dialog's action, a close) change the window.
        case primary
        /// A view that follows the window (a second screen, a remote, a recording): it shows, it never reports.
        case mirror
        /// A front-end for assistive technologies (a voice or screen-reader view): it follows and announces; it
        /// navigates with methods, not reports.
        case assistive
    }

    /// The id `RegisterRenderer` returned (`r1`, `r2`, … per window).
    public var id: String
    /// The unique bus name of the connection that registered it; it is gone with that connection.
    public var client: String
    /// Its role.
    public var role: Role
    /// What it can animate: its steps are planned for it (Window1 `Steps`).
    public var capabilities: RendererCapabilities
    /// The newest version it reported settled (`ReportSettled`), 0 before any.
    public var settled: Int = 0
}

extension Session {
    /// At most this many renderers per window.
    public static let maxRenderers = 16

    /// Registers `client` as a renderer of window `number` in `role` (Window1 `RegisterRenderer`), planning its steps
    /// with `capabilitiesJSON` (`{"multiDismiss":true,"pushesInOne":false}`; `""`: the window's). One primary per
    /// window: another client's primary registration is refused while it is on the bus; the same client registering
    /// again replaces its registration. A window's policy applies to a primary (it changes the window by its reports).
    /// In memory: renderers register again after a restart, as they connect again.
    /// - Returns: the outcome (the window's `Renderers` property changed); the id is the client's newest renderer's.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/invalidArguments(_:)`` (an unknown role, malformed
    ///   capabilities), ``SessionError/accessDenied(_:)`` (a primary already registered; the window's policy),
    ///   ``SessionError/limitsExceeded(_:)`` (``maxRenderers``).
    @discardableResult
    public func registerRenderer(
        window number: WindowNumber, role text: String, capabilitiesJSON: String, client: String
    ) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        guard let role = RegisteredRenderer.Role(rawValue: text) else {
            throw .invalidArguments("'\(text.prefix(40))' is not a renderer role (primary, mirror, assistive)")
        }
        var capabilities = window.capabilities
        if !capabilitiesJSON.allSatisfy(\.isWhitespace) {
            do throws(JSONInput.Failure) {
                capabilities = try JSONInput.decode(RendererCapabilities.self, from: capabilitiesJSON, limit: 4096)
            } catch {
                throw .invalidArguments("capabilities_json: \(error.message) ({\"multiDismiss\":true,\"pushesInOne\":false})")
            }
        }
        if role == .primary {
            try acting(as: client) { () throws(SessionError) in try checkPolicy(window) }
            if let other = window.renderers.first(where: { $0.role == .primary && $0.client != client }) {
                throw .accessDenied("window \(number) has a primary renderer (\(other.id), \(other.client)); register as a mirror")
            }
        }
        window.renderers.removeAll { $0.client == client && $0.role == role }
        guard window.renderers.count < Self.maxRenderers else {
            throw .limitsExceeded("window \(number) has \(window.renderers.count) renderers; at most \(Self.maxRenderers)")
        }
        window.nextRendererNumber += 1
        let id = "r\(window.nextRendererNumber)"
        window.renderers.append(RegisteredRenderer(id: id, client: client, role: role, capabilities: capabilities))
        return outcome(window: number, events: [])
    }

    /// Removes renderer `id` of window `number` (Window1 `UnregisterRenderer`); only the connection that registered it.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/invalidArguments(_:)`` (no such renderer),
    ///   ``SessionError/accessDenied(_:)`` (another client's).
    @discardableResult
    public func unregisterRenderer(window number: WindowNumber, id: String, client: String) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        guard let index = window.renderers.firstIndex(where: { $0.id == id }) else {
            throw .invalidArguments("window \(number) has no renderer '\(id.prefix(40))'")
        }
        guard window.renderers[index].client == client else {
            throw .accessDenied("renderer \(id) is \(window.renderers[index].client)'s")
        }
        window.renderers.remove(at: index)
        return outcome(window: number, events: [])
    }

    /// Throws `AccessDenied` when `client` is registered on `window` as a mirror or an assistive renderer and not as its
    /// primary: only the primary reports what the user did (a client that registered nothing keeps reporting, as
    /// renderers did before roles).
    func checkReporter(_ client: String?, on window: SessionWindow) throws(SessionError) {
        guard let client, !window.renderers.isEmpty else { return }
        let mine = window.renderers.filter { $0.client == client }
        guard !mine.isEmpty, !mine.contains(where: { $0.role == .primary }) else { return }
        throw .accessDenied(
            "\(client) is window \(window.number)'s \(mine[0].role.rawValue) renderer (\(mine[0].id)); only its primary reports")
    }

    /// Records `client`'s renderers' settled version (ReportSettled). O(renderers).
    func noteRendererSettled(_ window: SessionWindow, version: Int, client: String?) {
        guard let client else { return }
        for index in window.renderers.indices where window.renderers[index].client == client {
            window.renderers[index].settled = max(window.renderers[index].settled, version)
        }
    }

    /// `client` left the bus: its renderers are unregistered; the windows that had one.
    public func renderersLeft(_ client: String) -> [WindowNumber] {
        var left: [WindowNumber] = []
        for window in windows where window.renderers.contains(where: { $0.client == client }) {
            window.renderers.removeAll { $0.client == client }
            left.append(window.number)
        }
        return left
    }

    /// The steps of `event` planned for each registered renderer (Window1 `Steps`, sent to it alone).
    func rendererSteps(of event: ChangeEvent, in window: SessionWindow) -> [RendererSteps] {
        guard !window.renderers.isEmpty, !event.isNoOp else { return [] }
        let bound = limits.maxPlannedRouteEntries
        guard event.steps.reduce(0, { $0 + $1.size }) <= bound else { return [] }
        return window.renderers.map { renderer in
            var steps = NavigationStep.shaped(event.steps, for: renderer.capabilities.steps)
            if steps.reduce(0, { $0 + $1.size }) > bound { steps = event.steps }
            return RendererSteps(renderer: renderer.id, client: renderer.client, json: NavigationStep.json(steps))
        }
    }
}

/// One renderer's steps for one change.
public struct RendererSteps: Hashable, Sendable {
    /// The renderer's id.
    public var renderer: String
    /// Its connection (the signal's destination).
    public var client: String
    /// `steps_json`.
    public var json: String
}

extension SessionWindow {
    /// Window1 `Renderers`: `[{"capabilities":{"multiDismiss":true,"pushesInOne":false},"client":":1.5","id":"r1",
    /// "role":"primary","settled":12}]`, in registration order; `[]` when none registered.
    public var renderersJSON: String {
        // Most windows have none, and this is read after every change: no buffer for the two bytes.
        guard !renderers.isEmpty else { return "[]" }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, renderer) in renderers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"capabilities":{"multiDismiss":\#(renderer.capabilities.multiDismiss),"pushesInOne":\#(renderer.capabilities.pushesInOne)},"client":"#.utf8)
            _ = DirectJSON.appendString(renderer.client, to: &out)
            out.append(contentsOf: #","id":"#.utf8)
            _ = DirectJSON.appendString(renderer.id, to: &out)
            out.append(contentsOf: #","role":"\#(renderer.role.rawValue)","settled":"#.utf8)
            DirectJSON.appendInteger(renderer.settled, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }
}
