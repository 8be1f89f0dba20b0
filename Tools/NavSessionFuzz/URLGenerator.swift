import DBusTestSupport
/// URLs of every shape: the application's deep links filled in from their patterns, foreign schemes, and
/// broken ones (bad parameters, bad percent-encoding, odd schemes, lengths around the 8192-byte limit).
struct URLGenerator {
    let vocabulary: Vocabulary
    let strings: StringGenerator

    static let foreign = [
        "https://example.org/", "https://example.org/a?b=c#d", "http://[::1]:8080/x", "mailto:someone@example.org",
        "file:///etc/passwd", "tel:+1-555-0100", "data:text/plain,hello", "javascript:alert(1)", "ftp://u:p@h/",
        "urn:isbn:0451450523", "about:blank",
    ]

    /// A URL the daemon should handle: a deep link (valid parameters) or, sometimes, a foreign URL.
    func valid(_ random: inout SplitMix64) -> String {
        guard let scheme = vocabulary.schemes.first, !vocabulary.routes.isEmpty, !random.chance(0.15) else {
            return random.pick(Self.foreign, or: "https://example.org/")
        }
        let route = vocabulary.routes[random.int(0...(vocabulary.routes.count - 1))]
        var url = scheme + "://" + fill(route.pattern) { type in
            type == "int" ? String(random.int(0...9999)) : random.pick(vocabulary.words, or: "x")
        }
        let query = route.query.filter { _ in random.chance(0.5) }.map { item -> String in
            switch item.type {
            case "bool": item.name + "=" + random.pick(["1", "0", "true", "false"], or: "1")
            case "int": item.name + "=" + String(random.int(0...9999))
            default: item.name + "=" + random.pick(["x", "later", "a%20b"], or: "x")
            }
        }
        if !query.isEmpty { url += "?" + query.joined(separator: "&") }
        return url
    }

    /// A URL meant to be rejected (or at least to be awkward).
    func adversarial(_ random: inout SplitMix64, budget: inout SizeBudget) -> String {
        let scheme = vocabulary.schemes.first ?? "navsession-demo"
        let url: String
        let room = min(strings.maximumBytes, budget.remaining - 64)
        switch random.weighted([3, 2, 1.5, 1, 1, 1, room > 65_536 ? 0.3 : 0]) {
        case 0: url = brokenDeepLink(scheme, &random, &budget)
        case 1: url = random.pick(Self.oddForms(scheme), or: "")
        case 2: url = valid(&random) + random.pick(Self.suffixes, or: "")
        case 3: url = padded(valid(&random), to: random.pick([8191, 8192, 8193, 8200, 16_384], or: 8193))
        case 4: url = scheme + "://" + strings.make(&random, budget: &budget, words: vocabulary.words)
        case 5: url = strings.make(&random, budget: &budget, words: Self.foreign)
        default: url = padded(valid(&random), to: random.int(65_536...max(65_536, room)))
        }
        return budget.take(SizeBudget.string(url.utf8.count)) ? url : scheme + "://"
    }

    static let suffixes = [
        "#fragment", "?", "&", "?edit=maybe", "?edit=1&edit=0", "?unknown=1", "?edit", "/", "//", "/extra", "%", "%ZZ",
        "%00", "%F0%9F", " ", "\t", "\n", "?reason=%E2%80%AE", "?=", "?&&&", "#", "\\",
    ]

    static func oddForms(_ scheme: String) -> [String] {
        [
            "", ":", "://", scheme, scheme + ":", scheme + ":/", scheme + "://", scheme + ":detail/42", scheme + ":///detail/42",
            scheme.uppercased() + "://detail/42", scheme + "://DETAIL/42", scheme + "://detail/", scheme + "://detail/-1",
            scheme + "://detail/1.5", scheme + "://detail/0x10", scheme + "://detail/99999999999999999999999",
            scheme + "://detail/9223372036854775808", scheme + "://detail/%34%32", scheme + "://detail/42/edit/more",
            scheme + "://detail//edit", scheme + "://user:pass@detail/42", scheme + "://detail:80/42",
            scheme + "://[::1/detail", scheme + "://détail/42", scheme + "://detail/٤٢", scheme + "://settings/profile?edit=2",
            scheme + "://waiting?reason=", scheme + "://waiting?reason=" + String(repeating: "x", count: 300),
            "1abc://x", "-://x", "detail/42", "/detail/42", "?edit=1", "a b://c", "x:" + String(repeating: "/", count: 500),
        ]
    }

    /// A deep link whose pattern is filled with wrong values.
    private func brokenDeepLink(_ scheme: String, _ random: inout SplitMix64, _ budget: inout SizeBudget) -> String {
        let route = random.pick(vocabulary.routes, or: Vocabulary.Route(pattern: "detail/:id(int)", query: []))
        let bad = ["", "abc", "-1", "1e3", "18446744073709551616", "%", "%00", "42%2F43", "٤٢", "\u{202E}", "..", " 42"]
        var url = scheme + "://" + fill(route.pattern) { _ in
            random.chance(0.2) ? strings.make(&random, budget: &budget) : random.pick(bad, or: "")
        }
        if random.chance(0.5) {
            let names = route.query.map(\.name) + ["edit", "reason", "x"]
            url += "?" + (0..<random.int(1...4)).map { _ in
                random.pick(names, or: "x") + "=" + random.pick(bad + ["1", "true"], or: "")
            }.joined(separator: "&")
        }
        return url
    }

    /// `pattern` with each `:name` or `:name(type)` segment replaced by `value(type)`.
    private func fill(_ pattern: String, _ value: (String) -> String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            let type = segment.firstIndex(of: "(").map { String(segment[segment.index(after: $0)...].dropLast()) }
            return value(type ?? "string")
        }.joined(separator: "/")
    }

    /// `url` lengthened to exactly `length` bytes with a query parameter.
    private func padded(_ url: String, to length: Int) -> String {
        let separator = url.contains("?") ? "&pad=" : "?pad="
        let missing = length - url.utf8.count - separator.utf8.count
        return missing > 0 ? url + separator + String(repeating: "x", count: missing) : url
    }
}
