import NavigationCore

/// Settled versions: a renderer's word that it finished animating a version (Window1 `ReportSettled`,
/// signal `Settled`). Not a change: no version bump, no journal line, nothing on the change path.
extension Session {
    /// Records that `client`'s renderer finished animating `version` of window `number`.
    ///
    /// - Returns: `true` when `version` is newer than the window's settled version (the caller announces it,
    ///   once); `false` for the same or an older version (a no-op: another renderer, or a late report, already
    ///   settled it) — the reporter still becomes the window's ``SessionWindow/settledBy``, as it follows the window.
    /// - Throws: ``SessionError/versionNotReached(window:version:actual:)`` for a version the window has not
    ///   reached; ``SessionError/unknownWindow(_:)``.
    public func reportSettled(window number: WindowNumber, version: Int, client: String?) throws(SessionError) -> Bool {
        let window = try self.window(number)
        guard version <= window.version else {
            throw .versionNotReached(window: number, version: version, actual: window.version)
        }
        noteRendererSettled(window, version: version, client: client)
        // With a primary registered, the window's settled version is the primary's: a mirror settles only itself.
        if let client, window.renderers.contains(where: { $0.role == .primary }),
            !window.renderers.contains(where: { $0.role == .primary && $0.client == client })
        {
            return false
        }
        if let client { window.settledBy = client }
        guard version > window.settledVersion else { return false }
        window.settledVersion = version
        return true
    }

    /// Forgets `client` as the renderer of every window it reported settled for (it left the bus); returns those
    /// windows. O(windows), once per departure.
    public func settlerLeft(_ client: String) -> [WindowNumber] {
        var left: [WindowNumber] = []
        for window in windows where window.settledBy == client {
            window.settledBy = nil
            left.append(window.number)
        }
        return left
    }
}
