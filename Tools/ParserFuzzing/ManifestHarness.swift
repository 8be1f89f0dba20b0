import NavigationCore
import NavigationSession

/// Manifest files (`Manifest(json:)`, as `navsessiond --manifest` reads them): parsed and validated; an
/// accepted manifest round-trips through ``Manifest/json(pretty:)`` and every scene's window opens or
/// fails with an error (never a trap), leaving valid windows.
enum ManifestHarness {
    static func run(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        // `Manifest(contentsOfFile:)` rejects bytes that are not UTF-8 before parsing.
        guard let text = String(validating: data, as: UTF8.self) else { return }
        let manifest: Manifest
        do {
            manifest = try Manifest(json: text)
        } catch {
            guard !error.description.isEmpty else { throw InvariantViolation("manifest: an empty error message") }
            return
        }
        for pretty in [true, false] {
            let json = manifest.json(pretty: pretty)
            do {
                let again = try Manifest(json: json)
                guard again == manifest else {
                    throw InvariantViolation("manifest: changes when read back from its own JSON:\n\(json)")
                }
            } catch let error as InvariantViolation {
                throw error
            } catch {
                throw InvariantViolation("manifest: its own JSON is rejected: \(error)\n\(json)")
            }
        }
        guard (manifest.router == nil) == (manifest.deepLinks == nil) else {
            throw InvariantViolation("manifest: deep links declared without a router, or the reverse")
        }
        guard manifest.scene(manifest.defaultSceneName) != nil else {
            throw InvariantViolation("manifest: the default scene '\(manifest.defaultSceneName)' is not declared")
        }
        let session: Session
        do {
            session = try Session(manifest: manifest, limits: Fixtures.limits, logger: Fixtures.quiet)
        } catch {
            throw InvariantViolation("manifest: a session without a store cannot start: \(error)")
        }
        _ = try? session.openDefaultWindowIfNone()
        for scene in manifest.scenes {
            _ = try? session.openWindow(scene: scene.name)
        }
        try Invariants.check(session, "manifest")
    }
}
