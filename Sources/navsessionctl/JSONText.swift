/// Re-indents JSON text without parsing it into dictionaries, so the daemon's key order is kept.
enum JSONText {
    /// Indents `json` by two spaces per level; `[]` and `{}` stay on one line. Text that is not JSON comes out
    /// re-spaced but otherwise unchanged.
    static func pretty(_ json: String) -> String {
        var output = ""
        var depth = 0
        var inString = false
        var escaped = false
        var pendingOpen: Character?
        let characters = Array(json)

        func newline() {
            output.append("\n")
            output.append(String(repeating: "  ", count: max(depth, 0)))
        }

        for character in characters {
            if inString {
                output.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            if character.isWhitespace { continue }
            if let open = pendingOpen {
                pendingOpen = nil
                if (open == "[" && character == "]") || (open == "{" && character == "}") {
                    output.append(character)
                    continue
                }
                depth += 1
                newline()
            }
            switch character {
            case "{", "[":
                output.append(character)
                pendingOpen = character
            case "}", "]":
                depth -= 1
                newline()
                output.append(character)
            case ",":
                output.append(",")
                newline()
            case ":":
                output.append(": ")
            case "\"":
                inString = true
                output.append(character)
            default:
                output.append(character)
            }
        }
        return output
    }
}
