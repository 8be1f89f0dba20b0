import NavigationCore

/// How open-window and open-url print the window they got back.
enum WindowPathOutput {
    /// The path as text, or `{"window":"3","path":"…"}` with `--json`.
    static func line(for path: String, json: Bool) -> String {
        guard json else { return path }
        return "{\"window\":\(JSONString.literal(SessionNames.shortName(of: path))),"
            + "\"path\":\(JSONString.literal(path))}"
    }
}
