import Glibc

/// ANSI colours for the debug tree (`kind screen #id (attachment) tag:"t" {params}`, indented two spaces per level).
enum TreeColorizer {
    /// The colours of the parts of a line.
    enum Style: String {
        case kind = "\u{1B}[34m"        // blue
        case id = "\u{1B}[33m"          // yellow
        case attachment = "\u{1B}[32m"  // green
        case parameters = "\u{1B}[35m"  // magenta
        case screen = "\u{1B}[1m"       // bold
        case tag = "\u{1B}[36m"         // cyan

        static let reset = "\u{1B}[0m"

        func paint(_ text: Substring) -> String { rawValue + text + Self.reset }
    }

    /// Colours every line of `tree`; a line that does not have the expected shape is left as it is.
    static func colorize(_ tree: String) -> String {
        tree.split(separator: "\n", omittingEmptySubsequences: false).map(colorizeLine).joined(separator: "\n")
    }

    /// Colours one line.
    static func colorizeLine(_ line: Substring) -> String {
        let indent = line.prefix { $0 == " " }
        let body = line.dropFirst(indent.count)
        guard let space = body.firstIndex(of: " "),
              let hash = body[space...].firstRange(of: " #")
        else { return String(line) }
        let kind = body[..<space]
        let screen = body[body.index(after: space)..<hash.lowerBound]
        let afterHash = body[hash.upperBound...]
        let digits = afterHash.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return String(line) }
        var rest = afterHash.dropFirst(digits.count)
        var result = String(indent) + Style.kind.paint(kind) + " " + Style.screen.paint(screen) + " "
            + Style.id.paint(body[hash.lowerBound..<hash.upperBound].dropFirst() + digits)
        if rest.hasPrefix(" ("), let close = rest.firstIndex(of: ")") {
            result += " " + Style.attachment.paint(rest[rest.index(after: rest.startIndex)...close])
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix(" tag:\""), let end = Self.endOfLiteral(rest.dropFirst(5)) {
            result += " " + Style.tag.paint(rest[rest.index(after: rest.startIndex)..<end])
            rest = rest[end...]
        }
        if rest.hasPrefix(" {") {
            result += " " + Style.parameters.paint(rest.dropFirst())
        } else {
            result += rest
        }
        return result
    }

    /// The index just past the JSON string literal `text` starts with (its opening quote), or nil.
    static func endOfLiteral(_ text: Substring) -> Substring.Index? {
        guard text.first == "\"" else { return nil }
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            switch text[index] {
            case "\\":
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
            case "\"": return text.index(after: index)
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }
}
