// navsession-fuzz: a seeded D-Bus fuzzer for navsessiond (Docs/fuzzing-dbus.md).
import ArgumentParser

do {
    let command = try FuzzCommand.parse()
    try await command.run()
} catch {
    FuzzCommand.exit(withError: error)
}
