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

    /// The Flatpak app id of process `pid`: ``flatpakAppID(info:)`` of `/proc/PID/root/.flatpak-info` (as
    /// xdg-desktop-portal reads it); `""` when its root has no such file (not in a sandbox). When the daemon may not
    /// look into the process's root — it runs in a user namespace of its own, as under the systemd unit's
    /// `PrivateUsers=yes` — the process's systemd scope says it instead (``flatpakAppID(cgroup:)``: Flatpak starts
    /// every app in `app-flatpak-ID-N.scope`; any other scope is `""`). `nil` when the process is gone or the file names
    /// no valid id: no `host` or `app:` principal matches such a client. Blocking: small reads in `/proc`.
    public static func sandboxAppID(pid: Int32, procRoot: String = "/proc") -> String? {
        let root = "\(procRoot)/\(pid)/root"
        let fd = Glibc.open(root + "/.flatpak-info", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let failure = errno
            if failure == ENOENT { return access(root + "/", F_OK) == 0 ? "" : nil }
            guard failure == EACCES || failure == EPERM, let cgroup = readSmall("\(procRoot)/\(pid)/cgroup") else { return nil }
            return flatpakAppID(cgroup: cgroup)
        }
        defer { _ = Glibc.close(fd) }
        guard let bytes = try? FileIO.readAll(fd, limit: 64 * 1024, path: root) else { return nil }
        return flatpakAppID(info: String(decoding: bytes, as: UTF8.self))
    }

    /// The app id of a `/proc/PID/cgroup` whose unified-hierarchy line (`0::/…`) ends in a Flatpak app's scope
    /// (`…/app-flatpak-org.example.App-12345.scope`); `""` for any other path; `nil` for no unified line.
    public static func flatpakAppID(cgroup text: String) -> String? {
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("0::") }) else { return nil }
        guard let unit = line.split(separator: "/").last, unit.hasPrefix("app-flatpak-"), unit.hasSuffix(".scope") else {
            return ""
        }
        let middle = unit.dropFirst("app-flatpak-".count).dropLast(".scope".count)
        guard let dash = middle.lastIndex(of: "-"), middle[middle.index(after: dash)...].allSatisfy(\.isNumber) else { return "" }
        let id = middle[..<dash]
        return WindowPolicy.isAppID(id) ? String(id) : nil
    }

    private static func readSmall(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        guard let bytes = try? FileIO.readAll(fd, limit: 64 * 1024, path: path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
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
