import FoundationEssentials
import NavigationCore
import Synchronization
import Glibc

/// Test only: with `NAVSESSION_EMITTED_DOCUMENTS=DIR` set, the daemon appends every JSON
/// document it emits — JSON method replies and signal arguments, journal lines, snapshot files — to
/// `DIR/emitted-<pid>.jsonl`, one line each: `{"kind":"GetState.state_json","text":"<the document>"}`.
/// `scripts/validate-documents` checks each against its schema (`schemas/`, table in `schemas/kinds.json`).
///
/// Unset (every production run), ``shared`` is nil and each recording site costs one branch. A file stops at
/// ``byteLimit``; its last line is then `{"kind":"truncated"}` so the validator says so.
public final class EmittedDocuments: Sendable {
    /// The environment variable naming the directory.
    public static let environmentVariable = "NAVSESSION_EMITTED_DOCUMENTS"
    /// At most this many bytes per daemon process.
    public static let byteLimit = 256 << 20

    /// The recorder of this process, or nil (the variable is unset or the directory cannot be written).
    public static let shared: EmittedDocuments? = {
        guard let directory = ProcessInfo.processInfo.environment[environmentVariable], !directory.isEmpty else {
            return nil
        }
        let path = "\(directory)/emitted-\(getpid()).jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        return fd < 0 ? nil : EmittedDocuments(fd: fd, path: path)
    }()

    private let fd: Int32
    private let path: String
    private let written = Mutex(0)

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Records `document` (JSON text) as `kind`: `Method.argument`, `Signal.argument`, `journal` or `state`.
    public func record(_ kind: String, _ document: String) {
        var line: [UInt8] = []
        line.append(contentsOf: #"{"kind":"#.utf8)
        JSONString.appendLiteral(kind, to: &line)
        line.append(contentsOf: #","text":"#.utf8)
        JSONString.appendLiteral(document, to: &line)
        line.append(contentsOf: "}\n".utf8)
        write(line)
    }

    /// Records a document given as UTF-8 bytes (a journal line without its newline, a snapshot file).
    public func record(_ kind: String, bytes: [UInt8]) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        record(kind, String(decoding: bytes[..<end], as: UTF8.self))
    }

    private func write(_ line: [UInt8]) {
        written.withLock { total in
            guard total >= 0 else { return }
            var bytes = line
            if total + bytes.count > Self.byteLimit {
                bytes = Array(#"{"kind":"truncated"}"#.utf8) + [UInt8(ascii: "\n")]
                total = -1
            } else {
                total += bytes.count
            }
            try? FileIO.writeAll(fd, bytes, path: path)
        }
    }
}
