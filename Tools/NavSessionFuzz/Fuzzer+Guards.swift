import DBusKit
import Foundation

extension Fuzzer {
    /// The connection `call` is sent from: the fuzzer's own, the marks' owner (connected on first use and
    /// after it left), or the misbehaving provider's (connected again when away).
    func bus(for call: FuzzCall) async -> Result<Bus, any Error> {
        switch call.connection {
        case .main:
            return .success(client)
        case .marks:
            if let marks { return .success(marks) }
            do {
                let connected = try await Bus.connect(.address(target.address))
                marks = connected
                return .success(connected)
            } catch {
                return .failure(error)
            }
        case .provider:
            guard let provider else { return .success(client) }
            if let bus = provider.bus { return .success(bus) }
            do {
                try await provider.connect()
                return .success(provider.bus ?? client)
            } catch {
                return .failure(error)
            }
        }
    }

    /// The connection leaves the bus; the fuzzer waits until the bus says so (then the daemon has been told
    /// too, before the next call: marks and registrations go at the same point of every replay). The
    /// provider comes back at once; the marks' owner on its next call.
    func leave(_ connection: FuzzCall.Connection) async {
        switch connection {
        case .main:
            return
        case .marks:
            guard let marks else { return }
            self.marks = nil
            let unique = await marks.uniqueName
            await marks.close()
            if let unique { await vanished(unique) }
        case .provider:
            guard let provider, let bus = provider.bus else { return }
            let unique = await bus.uniqueName
            await provider.disconnect()
            if let unique { await vanished(unique) }
            try? await provider.connect()
        }
    }

    /// With the provider and the marks' owner gone, a change to every window must still complete within the
    /// guards' deadlines (plus a second of slack): nothing stuck behind a question nobody answers. Any reply
    /// counts but `LimitsExceeded` (a queue still full) and, as always, `Failed`.
    func endCheck() async -> [FuzzFailure] {
        guard let provider else { return [] }
        for connection in [FuzzCall.Connection.marks, .provider] {
            let bus = connection == .marks ? marks : provider.bus
            guard let bus else { continue }
            let unique = await bus.uniqueName
            if connection == .marks { marks = nil; await bus.close() } else { await provider.disconnect() }
            if let unique { await vanished(unique) }
        }
        guard let session = try? ObjectPath("/org/navsession/Session1"),
              let windows = try? await client.call(
                  destination: target.name, path: session, interface: try InterfaceName("org.navsession.Session1"),
                  member: try MemberName("ListWindows"), timeout: options.timeout)
        else {
            return [FuzzFailure(kind: .stuck, detail: "end check: ListWindows got no reply")]
        }
        let deadline = provider.deadline + .seconds(1)
        var failures: [FuzzFailure] = []
        var changed = 0
        for path in windows.first?.arrayElements?.compactMap(\.objectPath) ?? [] {
            let started = ContinuousClock.now
            do {
                _ = try await client.call(
                    destination: target.name, path: path, interface: try InterfaceName("org.navsession.Window1"),
                    member: try MemberName("SetTitle"), arguments: [.uint64(0), .string("end check")], timeout: deadline)
                changed += 1
            } catch let error as BusError {
                let name = error.name.rawValue
                if name == ErrorCatalog.failed || name.hasSuffix(".LimitsExceeded") {
                    failures.append(FuzzFailure(
                        kind: .stuck, detail: "end check: SetTitle on \(path.rawValue) → \(name): \(error.message)"))
                } else {
                    changed += 1
                }
            } catch {
                let waited = (ContinuousClock.now - started) / .milliseconds(1)
                failures.append(FuzzFailure(
                    kind: .stuck,
                    detail: "end check: SetTitle on \(path.rawValue) did not complete within \(deadline) (\(Int(waited)) ms): \(error)"))
            }
        }
        statistics.endCheckWindows = changed
        return failures
    }
}
