import Foundation
import Glibc

/// Reads a process's state, resident memory and open descriptors from /proc.
struct ProcessProbe: Sendable {
    let pid: Int32

    struct Sample: Sendable {
        /// Whether the process exists and is not a zombie.
        var alive: Bool
        /// VmRSS in bytes (0 when unknown).
        var residentBytes: Int
        /// Entries of /proc/PID/fd (-1 when unknown).
        var descriptors: Int
    }

    /// Reads state and memory; the descriptor count only when `descriptors` is true (it costs a directory scan).
    func sample(descriptors countDescriptors: Bool = true) -> Sample {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return Sample(alive: false, residentBytes: 0, descriptors: -1)
        }
        var alive = true
        var resident = 0
        for line in status.split(separator: "\n") {
            if line.hasPrefix("State:") {
                let state = line.dropFirst("State:".count).trimmingCharacters(in: .whitespaces)
                alive = !(state.hasPrefix("Z") || state.hasPrefix("X"))
            } else if line.hasPrefix("VmRSS:") {
                let digits = line.dropFirst("VmRSS:".count).filter(\.isNumber)
                resident = (Int(String(digits)) ?? 0) * 1024
            }
        }
        return Sample(alive: alive, residentBytes: resident, descriptors: countDescriptors ? descriptorCount() : -1)
    }

    private func descriptorCount() -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                bytes.first == UInt8(ascii: ".")
            }
            if !isDot { count += 1 }
        }
        return count
    }

    /// The open descriptors and what they point at (for failure reports).
    func descriptorTargets(limit: Int = 100) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
        return entries.prefix(limit).map { entry in
            "\(entry) -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry)) ?? "?")
        }
    }
}
