import Foundation

/// The run's scratch directory: the daemon's state directory, logs, and the clients' records.
struct Workspace {
    let directory: String

    static func create() throws -> Workspace {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("navsession-load-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return Workspace(directory: directory)
    }

    func path(_ name: String) -> String { directory + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
