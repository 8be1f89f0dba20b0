// navsessiond: serves a NavSession application on D-Bus (Sources/NavSessionService).
import ArgumentParser

do {
    // Parsing is ArgumentParser's; serving is ours, so top-level code can await it directly.
    let command = try NavSessionDaemon.parse()
    try await command.serve()
} catch {
    NavSessionDaemon.exit(withError: error)
}
