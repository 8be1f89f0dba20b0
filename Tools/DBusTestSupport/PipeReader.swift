import Foundation

/// Reads a pipe chunk by chunk with read(2) (on a thread of its own), retrying on EINTR: Foundation's `readDataToEndOfFile` traps
/// (`try!`) when a signal interrupts it, which a test process with many children does see.
public enum PipeReader {
    /// Calls `body` with each chunk `handle` yields as it arrives, until end of file (blocking).
    public static func forEachChunk(_ handle: FileHandle, _ body: (Data) -> Void) {
        let descriptor = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                body(Data(buffer[0..<count]))
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }
}
