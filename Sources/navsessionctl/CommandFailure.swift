import ArgumentParser
import DBusKit
import FoundationEssentials
import NavSessionClient

/// Turns any failure into ONE line on stderr (`navsessionctl: <D-Bus error name>: <message>`) and exit status 1.
enum CommandFailure {
    /// Runs `body`; a failure is printed as one line and becomes `ExitCode.failure`.
    ///
    /// ArgumentParser's own errors (usage, `ExitCode`, `CleanExit`) pass through unchanged.
    static func reporting(
        destination: String, timeout: Double, bus: NavSessionClient.BusSelection? = nil,
        _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let error as ExitCode {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch let error as ArgumentParser.ValidationError {
            throw error
        } catch {
            var text = message(for: error, destination: destination, timeout: timeout)
            if let bus, isNameAbsent(error) {
                let present = await BusNames.present(on: bus, timeout: timeout)
                text += "; " + present
            }
            printLine(text)
            throw ExitCode.failure
        }
    }

    /// Writes `navsessionctl: <text>` as one line on stderr.
    static func printLine(_ text: String) {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        StandardError.write("navsessionctl: \(flat)\n")
    }

    /// Whether `error` says no one owns the destination name.
    static func isNameAbsent(_ error: any Error) -> Bool {
        switch error {
        case let error as NavSessionError:
            if case .serviceUnknown = error { return true }
            if case .nameHasNoOwner = error { return true }
            return false
        case let error as BusError:
            return error.name == .serviceUnknown || error.name == .nameHasNoOwner
        default:
            return false
        }
    }

    /// The text for one error.
    static func message(for error: any Error, destination: String, timeout: Double) -> String {
        switch error {
        case let error as NavSessionError:
            switch error {
            case .serviceUnknown, .nameHasNoOwner:
                return "\(error.name): no daemon owns \(destination) on this bus"
            case .timedOut:
                return "timed out: no reply from \(destination) within \(timeout) s"
            case .connectionFailed(let message):
                return "cannot connect to the bus: \(message)"
            case .disconnected(let message):
                return message.isEmpty ? "disconnected" : "disconnected: \(message)"
            case .unexpectedReply, .encodingFailed, .decodingFailed, .windowGone, .daemonLeft, .waitTimedOut, .settleTimedOut,
                 .cancelled:
                return error.message
            default:
                return error.message.isEmpty ? error.name : "\(error.name): \(error.message)"
            }
        case let error as BusError:
            if error.name == .serviceUnknown || error.name == .nameHasNoOwner {
                return "\(error.name.rawValue): no daemon owns \(destination) on this bus"
            }
            return error.message.isEmpty ? error.name.rawValue : "\(error.name.rawValue): \(error.message)"
        case let error as ConnectionError where error.code == .timedOut:
            return "timed out: no reply from \(destination) within \(timeout) s"
        case let error as ConnectionError where error.code == .connectFailed:
            return "cannot connect to the bus: \(error.message)"
        case let error as ConnectionError:
            return "\(error)"
        default:
            return "\(error)"
        }
    }
}

extension ConnectingCommand {
    /// ``CommandFailure/reporting(destination:timeout:_:)`` with this command's destination and timeout.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        try await CommandFailure.reporting(destination: dest, timeout: timeout, bus: selection, body)
    }
}
