#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import NavigationCore

/// Window policies (Session1 `SetWindowPolicy`, a scene's `policy`; Docs/window-policy.md): who may change a window.
/// Checked where every change of a window passes (``gated(_:_:)``, a window's close), with the authority of the
/// client that caused the change (``actingClient``): a method's caller, a scheduled batch's author, a guard
/// provider for its redirect. The daemon's own changes (a replay, a client's departure, a timer without an author)
/// are not a client's and pass.
extension Session {
    /// Sets (or, `policyJSON` `""`, removes) window `number`'s policy for `client`, who must be one the current policy
    /// lets manage it (with no policy: a client outside a sandbox). Journaled.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/invalidArguments(_:)`` (a malformed policy),
    ///   ``SessionError/accessDenied(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func setWindowPolicy(
        window number: WindowNumber, policyJSON: String, client: String?
    ) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        let policy = try WindowPolicy.parse(json: policyJSON, caller: client)
        if let client {
            let managers = window.policy?.manage ?? WindowPolicy.defaultManage
            guard matches(managers, client: client) else {
                throw .accessDenied(
                    "\(client) may not change window \(number)'s policy (it may be managed by \(managers.joined(separator: ", ")))")
            }
        }
        guard policy != window.policy else { return outcome(window: number, events: []) }
        let before = window.policy
        window.policy = policy
        do {
            try persist(.policy(window: number, policy: policy))
        } catch {
            window.policy = before
            throw error
        }
        return outcome(window: number, events: [])
    }

    /// Why the acting client may not change `window`, or `nil` when it may (no policy, no client, a replay).
    /// O(principals).
    func policyRefusal(of window: SessionWindow) -> String? {
        guard let policy = window.policy, !replaying, let client = actingClient else { return nil }
        guard !matches(policy.change, client: client) else { return nil }
        return policy.change.isEmpty
            ? "window \(window.number) may not be changed by any client (its policy: \(policy.json))"
            : "\(client) may not change window \(window.number) (its policy lets \(policy.change.joined(separator: ", ")))"
    }

    /// Throws `AccessDenied` when the acting client may not change `window` (``policyRefusal(of:)``).
    func checkPolicy(_ window: SessionWindow) throws(SessionError) {
        if let refusal = policyRefusal(of: window) { throw .accessDenied(refusal) }
    }

    /// Whether `client` is one of `principals` (``WindowPolicy``).
    func matches(_ principals: [String], client: String) -> Bool {
        WindowPolicy.matches(
            principals, client: client, app: clientApps[client], share: share(of: client), shareOf: { self.share(of: $0) })
    }

    /// The Flatpak app id of process `pid` (``flatpakAppID(info:)`` of `/proc/PID/root/.flatpak-info`); `""` when its
    /// root has no such file (not in a sandbox); `nil` when its root cannot be read (the process is gone) or the file
    /// names no valid id — no `host` or `app:` principal matches such a client. Blocking: a small read in `/proc`.
    public static func sandboxAppID(pid: Int32, procRoot: String = "/proc") -> String? {
        let root = "\(procRoot)/\(pid)/root"
        let fd = Glibc.open(root + "/.flatpak-info", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            guard errno == ENOENT else { return nil }
            // No file where the process sees its root: not sandboxed, if that root is there at all.
            return access(root + "/", F_OK) == 0 ? "" : nil
        }
        defer { _ = Glibc.close(fd) }
        guard let bytes = try? FileIO.readAll(fd, limit: 64 * 1024, path: root) else { return nil }
        return flatpakAppID(info: String(decoding: bytes, as: UTF8.self))
    }

    /// Reads a Flatpak sandbox's `.flatpak-info` (an INI file): the `name` of its `[Application]` (or `[Runtime]`)
    /// group, `nil` when it names none. The daemon reads the file a client process sees at its root
    /// (`/proc/PID/root/.flatpak-info`), as xdg-desktop-portal does.
    public static func flatpakAppID(info text: String) -> String? {
        var group = ""
        // `\r\n` is one Character: split on every newline.
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("[") {
                group = String(line)
                continue
            }
            guard group == "[Application]" || group == "[Runtime]" else { continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: " \t")
            guard key == "name" else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: " \t")
            return WindowPolicy.isAppID(Substring(value)) ? value : nil
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
