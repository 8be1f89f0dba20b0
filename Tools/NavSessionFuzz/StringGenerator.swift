import Foundation
import DBusTestSupport

/// Adversarial strings: empty, declared names and near misses, unusual Unicode, text that looks like numbers,
/// paths, JSON or format directives, and long ones up to `maximumBytes`.
///
/// D-Bus strings are UTF-8 without NUL, which Swift strings without NUL always are, so everything made here
/// can be sent.
struct StringGenerator {
    /// The longest single string (`--max-string-bytes`).
    let maximumBytes: Int

    /// Fixed strings that have broken parsers before.
    static let tricky: [String] = [
        "", " ", "\t", "\n", "\r\n", "\u{1}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FEFF}home",
        "\u{200B}", "\u{200D}", "\u{202E}emoh", "\u{2066}a\u{2069}", "e\u{301}", "\u{E9}", "\u{FFFD}",
        "\u{E0001}\u{E0068}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "\u{1F1FA}\u{1F1F8}", "a\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}", "\u{0627}\u{0644}\u{0639}",
        "\u{4E2D}\u{6587}", "h\u{043E}me", "ＨＯＭＥ", "İ", "ß", "ﬁ", "%s%s%n%x", "%00", "%", "\\", "\"", "'", "`",
        "\\u0000", "\\ud800", "{", "}", "[", "]", "[]", "{}", "null", "true", "NaN", "-0", "0", "-1", "1e309",
        "4294967296", "18446744073709551615", "18446744073709551616", "9223372036854775808", "0x10", " 42", "42 ",
        "٤٢", "４２", "/", "//", "..", "../../etc/passwd", "/org/navsession/Session1", "a/b", "a:b", "a:b:c:d", ":",
        "::", "+stack", "sheet+stack+stack", "$(id)", "<xml/>", "<!--", "]]>", "&amp;",
    ] + [0xFFFE, 0xFFFF, 0xFDD0, 0x1FFFF, 0x10FFFF].compactMap { Unicode.Scalar(UInt32($0)).map { String($0) } }

    /// One adversarial string, mixing `words` (declared names) with everything above.
    func make(_ random: inout SplitMix64, budget: inout SizeBudget, words: [String] = []) -> String {
        let string: String
        // Long strings take what the call's budget allows (most calls get a small budget, a few a huge one).
        let room = min(maximumBytes, budget.remaining - 64)
        if budget.wantsLongString, room >= 65_536 {
            budget.wantsLongString = false
            let string = long(random.int(room / 4...room), &random)
            if budget.take(SizeBudget.string(string.utf8.count)) { return string }
        }
        switch random.weighted([3, 3, 2, 2, 2, 1.5, room >= 1000 ? 1 : 0, room >= 65_536 ? 0.5 : 0, room >= 1 << 20 ? 0.5 : 0]) {
        case 0: string = random.pick(words, or: "home")
        case 1: string = Self.tricky[random.int(0...(Self.tricky.count - 1))]
        case 2: string = nearMiss(random.pick(words, or: "home"), &random)
        case 3: string = scalars(random.length(upTo: 40), &random)
        case 4: string = ascii(random.length(upTo: 200), &random)
        case 5: string = scalars(random.int(40...1000), &random)
        case 6: string = long(random.int(1000...min(65_536, room)), &random)
        case 7: string = long(random.int(65_536...min(1 << 20, room)), &random)
        default: string = long(random.int(1 << 20...room), &random)
        }
        if budget.take(SizeBudget.string(string.utf8.count)) { return string }
        return Self.tricky[random.int(0...20)]
    }

    /// A declared name changed slightly: case, whitespace, a homoglyph, a suffix, a normalization form.
    func nearMiss(_ word: String, _ random: inout SplitMix64) -> String {
        switch random.int(0...9) {
        case 0: return word.uppercased()
        case 1: return " " + word
        case 2: return word + "\n"
        case 3: return word + "+stack"
        case 4: return word.replacingOccurrences(of: "o", with: "\u{043E}")
        case 5: return word + word
        case 6: return String(word.dropLast())
        case 7: return word + "\u{301}"
        case 8: return word + "/" + word
        default: return "\u{FEFF}" + word
        }
    }

    /// Random printable ASCII.
    func ascii(_ count: Int, _ random: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            if let scalar = Unicode.Scalar(UInt32(random.int(0x20...0x7E))) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// Random scalars from awkward ranges: controls, combining marks, bidi, noncharacters, astral planes.
    func scalars(_ count: Int, _ random: inout SplitMix64) -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0x01...0x1F, 0x20...0x7E, 0x7F...0x9F, 0xA0...0x2FF, 0x300...0x36F, 0x590...0x6FF, 0x200B...0x200F,
            0x2028...0x202E, 0x2066...0x2069, 0x4E00...0x9FFF, 0xE000...0xF8FF, 0xFDD0...0xFDEF, 0xFFF0...0xFFFF,
            0x1F300...0x1F6FF, 0x1F900...0x1F9FF, 0xE0000...0xE007F, 0x10FFF0...0x10FFFF,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            let range = ranges[random.int(0...(ranges.count - 1))]
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// About `bytes` bytes, built by repetition so multi-MiB strings stay cheap to make.
    func long(_ bytes: Int, _ random: inout SplitMix64) -> String {
        let unit: String
        switch random.int(0...4) {
        case 0: unit = "a"
        case 1: unit = "\u{E9}\u{1F600}\u{202E}x"
        case 2: unit = "\\\"{["
        case 3: unit = ascii(16, &random)
        default: unit = scalars(8, &random)
        }
        let unitBytes = max(unit.utf8.count, 1)
        return String(repeating: unit, count: max(bytes / unitBytes, 1))
    }
}
