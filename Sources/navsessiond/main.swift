// navsessiond: serves a NavSession application on D-Bus (Sources/NavSessionService).
import ArgumentParser

do {
    // Parsing is ArgumentParser's; serving (and exiting) is ours.
    let command = try NavSessionDaemon.parse()
    await command.runAndExit()
} catch {
    NavSessionDaemon.exit(withError: error)
}
