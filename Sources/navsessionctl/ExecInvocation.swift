import DBusKit
import NavigationCore

/// An ``ExecOperation`` applied to the words typed after it: the D-Bus call to make, checked before connecting.
struct ExecInvocation: Sendable {
    /// The operation.
    let operation: ExecOperation
    /// The object that receives the call.
    let path: ObjectPath
    /// The interface of the call.
    let interface: String
    /// The call's arguments, in the method's order.
    let arguments: [Value]

    /// Why the words do not fit the operation (a usage error).
    struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Resolves `command words…` for `window`.
    /// - Throws: ``UsageError`` for an unknown command, a missing or extra word, a bad number or parameter.
    init(window: ObjectPath, command: String, words: [String]) throws(UsageError) {
        guard let operation = ExecOperation.named(command) else {
            let suggestion = Spelling.closest(to: command, in: ExecOperation.all.map(\.name))
                .map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(
                description: "unknown command '\(command)'\(suggestion) (run 'navsessionctl exec --help' for the list)")
        }
        self.operation = operation
        let values: [Value]
        do {
            values = try Self.values(for: operation, words: words)
        } catch {
            throw UsageError(description: "\(command): \(error.description) (usage: \(operation.usage))")
        }
        switch operation.target {
        case .window:
            path = window
            interface = SessionNames.window
            arguments = values
        case .session:
            path = try Self.sessionPath()
            interface = SessionNames.session
            arguments = [.objectPath(window)] + values
        }
    }

    /// The call as one line: `PATH INTERFACE.MEMBER(SIGNATURE) ARG…` (`exec --dry-run`).
    var callDescription: String {
        let signature = arguments.map(\.type.description).joined()
        let rendered = arguments.map(ValueText.render)
        return (["\(path.rawValue) \(interface).\(operation.member)(\(signature))"] + rendered).joined(separator: " ")
    }

    /// The session object's path.
    private static func sessionPath() throws(UsageError) -> ObjectPath {
        do {
            return try ObjectPath(SessionNames.sessionPath)
        } catch {
            throw UsageError(description: "\(error)")
        }
    }

    /// Checks and converts the words, argument by argument.
    private static func values(for operation: ExecOperation, words: [String]) throws(UsageError) -> [Value] {
        var positional: [String] = []
        var named: [String: String?] = [:]
        var afterSeparator = false
        for word in words {
            if !afterSeparator, word == "--" {
                afterSeparator = true
            } else if !afterSeparator, word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let value = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                let takesOptions = operation.arguments.contains(.applyOptions)
                    && (name == "expected-version" || name == "transaction")
                guard takesOptions || operation.arguments.contains(where: { $0 == .flag(name) || $0 == .option(name) }) else {
                    throw UsageError(description: "unknown option '--\(name)'")
                }
                named[name] = .some(value)
            } else {
                positional.append(word)
            }
        }

        var values: [Value] = []
        var next = positional.startIndex
        /// The next positional word, for the argument `name`.
        func nextWord(_ name: String) throws(UsageError) -> String {
            guard next < positional.endIndex else { throw UsageError(description: "missing \(name)") }
            defer { next += 1 }
            return positional[next]
        }
        /// The next positional word as a number, for the argument `name` (`what` says which kind, for the error).
        func nextNumber<Number: FixedWidthInteger>(_ name: String, _ what: String) throws(UsageError) -> Number {
            let word = try nextWord(name)
            guard let number = Number(word) else { throw UsageError(description: "\(name) must be \(what), not '\(word)'") }
            return number
        }
        for argument in operation.arguments {
            switch argument {
            case .string(let name), .json(let name):
                values.append(.string(try nextWord(name)))
            case .model(let name):
                values.append(.uint64(try nextNumber(name, "a model id")))
            case .count(let name):
                values.append(.uint32(try nextNumber(name, "a number")))
            case .optionalCount(let name, let defaultValue):
                values.append(.uint32(next < positional.endIndex ? try nextNumber(name, "a number") : defaultValue))
            case .parameters:
                do {
                    values.append(try KeyValueParameters(parsing: Array(positional[next...])).value)
                } catch {
                    throw UsageError(description: error.description)
                }
                next = positional.endIndex
            case .words(let name, let minimum):
                let rest = Array(positional[next...])
                guard rest.count >= minimum else { throw UsageError(description: "missing \(name)") }
                values.append(.strings(rest))
                next = positional.endIndex
            case .flag(let name):
                if let given = named[name], given != nil {
                    throw UsageError(description: "--\(name) takes no value")
                }
                values.append(.boolean(named[name] != nil))
            case .option(let name):
                if let given = named[name], given == nil {
                    throw UsageError(description: "--\(name) needs a value (--\(name)=VALUE)")
                }
                values.append(.string((named[name] ?? nil) ?? ""))
            case .applyOptions:
                var options: [String: String] = [:]
                if let given = named["expected-version"] {
                    guard let text = given, UInt64(text) != nil else {
                        throw UsageError(description: "--expected-version needs a version number (--expected-version=N)")
                    }
                    options["expected_version"] = text
                }
                // The change's transaction payload, a JSON object (checked by the daemon).
                if let given = named["transaction"] {
                    guard let text = given, !text.isEmpty else {
                        throw UsageError(description: "--transaction needs a JSON object (--transaction='{\"k\":1}')")
                    }
                    options["transaction"] = text
                }
                values.append(.dictionary(key: .string, value: .string, options.sorted { $0.key < $1.key }.map {
                    DictionaryEntry(.string($0.key), .string($0.value))
                }))
            }
        }
        guard next == positional.endIndex else {
            throw UsageError(description: "unexpected '\(positional[next])'")
        }
        return values
    }
}
