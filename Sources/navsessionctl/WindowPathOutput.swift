import DBusKit
import NavigationCore

/// How open-window and open-url print the window they got back.
enum WindowPathOutput {
    /// The path as text, or `{"window":"3","path":"…"}` with `--json`.
    static func line(for reply: [Value], member: String, json: Bool) throws -> String {
        guard let path = reply.first?.objectPath else { throw ReplyError(member: member, reply: reply) }
        guard json else { return path.rawValue }
        return "{\"window\":\(JSONString.literal(SessionNames.shortName(of: path.rawValue))),"
            + "\"path\":\(JSONString.literal(path.rawValue))}"
    }
}
