import ArgumentParser
import DBusKit

/// A WINDOW argument: a window number (`3`) or a full object path (`/org/navsession/Session1/window/3`).
struct WindowArgument: ExpressibleByArgument, Sendable, Equatable {
    /// The window's object path.
    let path: ObjectPath

    /// The help of every WINDOW argument.
    static let help = ArgumentHelp("A window number or object path.")

    /// Parses a number or an object path; `nil` (a usage error) for anything else.
    init?(argument: String) {
        if !argument.isEmpty, argument.allSatisfy(\.isASCII), let number = UInt64(argument) {
            guard let path = try? ObjectPath(SessionNames.windowPrefix + String(number)) else { return nil }
            self.path = path
        } else if argument.hasPrefix("/"), let path = try? ObjectPath(argument) {
            self.path = path
        } else {
            return nil
        }
    }

    /// Wraps a path the daemon returned.
    init(path: ObjectPath) {
        self.path = path
    }

    /// The open windows' numbers, asked of the daemon when the shell completes (``LiveCompletion``).
    static var defaultCompletionKind: CompletionKind { LiveCompletion.windows }
}
