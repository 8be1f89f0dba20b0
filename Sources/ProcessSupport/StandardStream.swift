import Glibc

/// write(2) on the standard descriptors, whole or not at all: a short write continues, EINTR retries, and a
/// closed pipe (EPIPE) ends the write quietly, as it did with Foundation's `FileHandle`. navsessiond and
/// navsessionctl both write their stdout and stderr through it (neither links full Foundation).
package enum StandardStream {
    package static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
