/// A broken promise of the daemon, found after a call.
struct FuzzFailure: Sendable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case missingReply = "missing reply"
        case failedError = "org.freedesktop.DBus.Error.Failed"
        case undocumentedError = "undocumented error"
        case wrongReply = "reply of the wrong type"
        case daemonGone = "daemon gone"
        case nameLost = "name lost"
        case memory = "RSS over limit"
        case descriptors = "descriptors over limit"
        case fuzzerDisconnected = "fuzzer disconnected"
        /// `--misbehaving-provider`'s end check: a change to a window did not complete in time.
        case stuck = "stuck window"
    }

    var kind: Kind
    var detail: String

    /// What happened without the particulars (numbers, sizes), to group repeats of one bug.
    var signature: String

    init(kind: Kind, detail: String, signature: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.signature = kind.rawValue + (signature.map { ": " + $0 } ?? "")
    }

    var description: String { "\(kind.rawValue): \(detail)" }
}
