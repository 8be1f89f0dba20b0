import DBusKit
import NavSessionInterface

/// Why the daemon started and whose state it keeps (Docs/persistence.md, "Restore by reason").
extension SessionProxy {
    /// Why the daemon started: `pristine`, `launch`, `recover` or `restore` (property `RestoreReason`).
    public var restoreReason: String {
        get async throws(NavSessionError) { try await stringProperty(NavSessionInterface.Session1.restoreReason) }
    }

    /// Where the crash-loop guard set the previous state aside at start, or nil (property `RestoreSetAside`).
    public var restoreSetAside: String? {
        get async throws(NavSessionError) {
            let path = try await stringProperty(NavSessionInterface.Session1.restoreSetAside)
            return path.isEmpty ? nil : path
        }
    }

    /// The instance whose state the daemon keeps, or nil for the application's own (property `Instance`).
    public var instance: String? {
        get async throws(NavSessionError) {
            let id = try await stringProperty(NavSessionInterface.Session1.instance)
            return id.isEmpty ? nil : id
        }
    }

    private func stringProperty(_ name: String) async throws(NavSessionError) -> String {
        let value = try await client.property(ObjectPaths.session, ObjectPaths.sessionInterface, name)
        guard let text = value.string else { throw .unexpected("Get(\(name))", [value]) }
        return text
    }
}
