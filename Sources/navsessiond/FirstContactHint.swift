#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What `--private-bus` suggests on stderr once it serves: lines a user pastes into another shell and that run
/// as printed — a window of the first scene opened, then the open windows listed, so a fresh daemon shows
/// something; another application's bus name is passed with `--dest`. From a checkout (this binary sits under `<package>/.build/`) `navsessionctl` is
/// not on the PATH and maybe not built, so the hint is `swift run --package-path <package> navsessionctl list`;
/// an installed daemon names `navsessionctl` beside it (bare when that directory is on the PATH).
enum FirstContactHint {
    /// The bus name navsessionctl talks to by default (the demo's).
    static let demoName = "org.navsession.Demo"

    /// The hint's lines, each ending in a newline, and an empty line after them.
    static func text(address: String, busName: String, scene: String, executable: String?,
                     path: String?, fileExists: (String) -> Bool) -> String {
        let ctl = command(executable: executable, path: path, fileExists: fileExists)
        // navsessionctl talks to the demo unless told: another application's name goes on each line.
        let dest = busName == demoName ? "" : " --dest " + quoted(busName)
        return """
            navsessiond: serving \(busName) on a private bus. In another shell:
              export DBUS_SESSION_BUS_ADDRESS=\(quoted(address))
              \(ctl) open-window \(quoted(scene))\(dest) && \(ctl) list\(dest)


            """
    }

    /// How to run `navsessionctl` from another shell (without its arguments).
    static func command(executable: String?, path: String?, fileExists: (String) -> Bool) -> String {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return "navsessionctl" }
        let directory = String(executable[..<slash])
        if let build = executable.firstRange(of: "/.build/") {
            let package = String(executable[..<build.lowerBound])
            if fileExists(package + "/Package.swift") {
                return "swift run --package-path \(quoted(package)) navsessionctl"
            }
        }
        let sibling = directory + "/navsessionctl"
        guard fileExists(sibling) else { return "navsessionctl" }
        let onPath = (path ?? "").split(separator: ":").contains { $0 == directory }
        return onPath ? "navsessionctl" : quoted(sibling)
    }

    /// `word` for a POSIX shell: bare when it has only safe characters, else in single quotes.
    static func quoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:,=@%".contains($0)) }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// This process's executable, symbolic links resolved (`/proc/self/exe`), or nil where that cannot be read.
    static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
