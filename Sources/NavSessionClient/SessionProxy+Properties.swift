import DBusKit
import NavSessionInterface

/// All `org.navsession.Session1` properties at one moment (`Properties.GetAll`): what `navsessionctl status` shows.
public struct SessionProperties: Sendable, Hashable {
    /// The manifest's application id (also the bus name unless `--name` chose another).
    public var applicationID: String
    /// The instance whose state the daemon keeps (`--instance`), `""` for the application's own.
    public var instance: String
    /// Why the daemon started: `pristine`, `launch`, `recover` or `restore` (Docs/persistence.md).
    public var restoreReason: String
    /// Where the crash-loop guard set the previous state aside, `""` when it did not.
    public var restoreSetAside: String
    /// The session version: +1 per window opened or closed.
    public var version: UInt64
    /// The open windows' object paths.
    public var windows: [String]
    /// The scenes the manifest declares.
    public var scenes: [String]
    /// The screens the manifest declares, in its order.
    public var screens: [String]
    /// Every declared guard → its provider's unique name, `""` for none.
    public var guards: [String: String]

    /// Reads the properties from a `GetAll` reply; missing ones are empty or zero.
    init(_ values: [String: Value]) {
        typealias S = NavSessionInterface.Session1
        applicationID = values[S.applicationID]?.string ?? ""
        instance = values[S.instance]?.string ?? ""
        restoreReason = values[S.restoreReason]?.string ?? ""
        restoreSetAside = values[S.restoreSetAside]?.string ?? ""
        version = values[S.version]?.uint64 ?? 0
        windows = values[S.windows]?.arrayElements?.compactMap { $0.objectPath?.rawValue } ?? []
        scenes = values[S.scenes]?.arrayElements?.compactMap(\.string) ?? []
        screens = values[S.screens]?.arrayElements?.compactMap(\.string) ?? []
        var guards: [String: String] = [:]
        for entry in values[S.guards]?.dictionaryEntries ?? [] {
            if let name = entry.key.string, let provider = entry.value.string { guards[name] = provider }
        }
        self.guards = guards
    }
}

extension SessionProxy {
    /// Every Session1 property at once (`Properties.GetAll`).
    public func properties() async throws(NavSessionError) -> SessionProperties {
        SessionProperties(try await client.allProperties(ObjectPaths.session, ObjectPaths.sessionInterface))
    }
}
