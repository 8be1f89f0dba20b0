import Foundation
import NavigationCore
import NavigationSession

/// Checks a run: every call answered, `Changed` gap-free per window and daemon instance, no acknowledged
/// change lost or version reused across restarts, and every restored and final window state equal to a
/// local replay of the acknowledged commands in version order.
///
/// The replay runs the same batches the daemon builds (``LoadCommand/batch(scene:context:)``) on
/// NavigationCore windows opened like the daemon's, so model ids match and whole snapshots are compared.
/// A version nobody acknowledged (journaled, then the reply died with the daemon) is filled from its
/// `Changed` cause when the signal got out; otherwise it must be one of the calls left without a reply
/// at that kill — the replay tries them — and the result must equal the restored state exactly.
struct Verifier {
    let data: RunData
    let context: ReplayContext

    /// A change to replay: a client's command, or a batch taken from a `Changed` signal's cause.
    private enum Source {
        case command(LoadCommand)
        case batch([BatchCommand])
    }

    private struct Cause: Decodable {
        var commands: [BatchCommand]
    }

    /// A state to compare with: after restart `generation`, or the final one (`generation == Int.max`).
    private struct Point {
        var generation: Int
        var snapshot: WindowSnapshot
        var version: UInt64 { UInt64(snapshot.version) }
        var label: String { generation == Int.max ? "the final state" : "the state restored by restart \(generation)" }
    }

    func verify() -> Verification {
        var result = Verification()
        for record in data.records {
            switch record.outcome {
            case .failed(let error):
                result.problem("client \(record.client): \(record.command.name) on window \(record.window): \(error)")
            case .unknown(let error), .undelivered(let error):
                if !data.faults {
                    result.problem("client \(record.client): \(record.command.name) on window \(record.window) unanswered: \(error)")
                }
            case .acknowledged, .rejected:
                break
            }
        }
        for (window, scene) in data.windows.sorted(by: { $0.key < $1.key }) {
            verify(window: window, scene: scene, into: &result)
        }
        return result
    }

    /// The fault that started `generation`, as reported.
    private func faultName(_ generation: Int) -> String {
        generation == Int.max ? "end" : data.faultOf[generation]?.rawValue ?? "restart \(generation)"
    }

    /// False, with every acknowledged change of `window` before `generation` counted as lost, when the
    /// window is missing from those states (from ListWindows).
    private func missing(_ window: UInt64, at generation: Int, from states: [UInt64: String]?, into result: inout Verification) -> Bool {
        guard let states, states[window] == nil else { return true }
        let acknowledged = Set(data.records.compactMap { record -> UInt64? in
            guard record.window == window, record.generation < generation, case .acknowledged(let version) = record.outcome
            else { return nil }
            return version
        })
        let label = generation == Int.max ? "the final state" : "the state restored after fault \(generation) (\(faultName(generation)))"
        result.lost(acknowledged.count, at: faultName(generation),
                    "window \(window) is missing from \(label): its \(acknowledged.count) acknowledged versions are lost")
        return false
    }

    private func decode(_ json: String?, _ what: String, into result: inout Verification) -> WindowSnapshot? {
        guard let json else {
            result.problem("\(what): missing")
            return nil
        }
        do {
            return try JSONDecoder().decode(WindowSnapshot.self, from: Data(json.utf8))
        } catch {
            result.problem("\(what): not a window snapshot: \(error)")
            return nil
        }
    }

    private func verify(window: UInt64, scene: String, into result: inout Verification) {
        var points: [Point] = []
        for generation in data.restores.keys.sorted() {
            guard missing(window, at: generation, from: data.restores[generation], into: &result),
                  let snapshot = decode(data.restores[generation]?[window], "window \(window) after restart \(generation)", into: &result)
            else { return }
            points.append(Point(generation: generation, snapshot: snapshot))
        }
        guard missing(window, at: Int.max, from: data.final, into: &result),
              let final = decode(data.final[window], "window \(window) at the end", into: &result)
        else { return }
        points.append(Point(generation: Int.max, snapshot: final))
        let restoredVersion = Dictionary(uniqueKeysWithValues: points.map { ($0.generation, $0.version) })
        let problemsBefore = result.problems.count

        // 1. Changed: per daemon instance strictly +1 from the restored version, previous = version - 1.
        let changes = data.changes.filter { $0.window == window }
        var lastInGeneration: [Int: UInt64] = [:]
        var signalled: [UInt64: ChangeRecord] = [:]
        for change in changes {
            guard let generation = data.generations[change.sender] else {
                result.problem("window \(window): Changed v\(change.version) from an unknown sender \(change.sender)")
                continue
            }
            result.signalsChecked += 1
            if change.previous + 1 != change.version {
                result.problem("window \(window): Changed v\(change.version) has previous_version \(change.previous)")
            }
            let expected = lastInGeneration[generation].map { $0 + 1 }
                ?? (generation == 0 ? 1 : (restoredVersion[generation] ?? 0) + 1)
            if change.version != expected {
                result.problem("window \(window): Changed v\(change.version) from daemon \(generation), expected v\(expected)")
            }
            lastInGeneration[generation] = change.version
            for point in points where point.generation > generation && point.version < change.version {
                result.signalledLost += 1
                result.problem("window \(window): v\(change.version) was signalled by daemon \(generation) but \(point.label) is v\(point.version)")
                break
            }
            signalled[change.version] = change
        }

        let lastWorking = data.restores.keys.max() ?? 0
        let finalVersion = UInt64(final.version)
        if finalVersion > (restoredVersion[lastWorking] ?? 0), lastInGeneration[lastWorking] != finalVersion {
            result.problem("window \(window): the last Changed of daemon \(lastWorking) is v\(lastInGeneration[lastWorking].map(String.init) ?? "none"), the final state is v\(finalVersion)")
        }

        // 2. Acknowledged changes: each version once, present in every later restore and at the end.
        // A command that changes nothing (selecting the selected tab) is acknowledged with the current
        // version, so a version may be acknowledged more than once; it is reused only when a later daemon
        // acknowledged it as a change of its own (above the version it restored).
        var acknowledged: [UInt64: [CallRecord]] = [:]
        for record in data.records where record.window == window {
            guard case .acknowledged(let version) = record.outcome else { continue }
            if let earlier = acknowledged[version]?.first(where: { earlier in
                earlier.generation != record.generation
                    && version > (restoredVersion[max(earlier.generation, record.generation)] ?? 0)
            }) {
                result.reused(
                    at: faultName(max(earlier.generation, record.generation)),
                    "window \(window): v\(version) acknowledged twice (daemon \(earlier.generation) and \(record.generation))")
            }
            acknowledged[version, default: []].append(record)
            result.acknowledgedChecked += 1
            for point in points where point.generation > record.generation && point.version < version {
                result.lost(
                    1, at: faultName(point.generation),
                    "window \(window): acknowledged v\(version) (client \(record.client), daemon \(record.generation)) is missing from \(point.label) (v\(point.version))")
                break
            }
        }
        guard result.problems.count == problemsBefore else { return }

        // 3. Replay in version order, compared at every restore point and at the end.
        // The signalled cause is the change itself; acknowledged commands of the same version may be no-ops.
        // An acknowledgement at or below the version its daemon restored is a no-op of that daemon (it answers
        // with the current version), never the change that made the version: that change happened before the
        // restart, possibly by a call whose reply died in the kill, so it stays open for the candidates.
        var known: [UInt64: [Source]] = [:]
        for (version, records) in acknowledged {
            let sources = records.filter { version > (restoredVersion[$0.generation] ?? 0) }.map { Source.command($0.command) }
            if !sources.isEmpty { known[version] = sources }
        }
        for (version, change) in signalled {
            guard let cause = try? JSONDecoder().decode(Cause.self, from: Data(change.cause.utf8)) else {
                result.problem("window \(window): Changed v\(version) has an unreadable cause: \(change.cause.prefix(200))")
                return
            }
            known[version] = [.batch(cause.commands)]
        }
        for version in 1...max(finalVersion, 1) where version <= finalVersion && acknowledged[version] == nil {
            result.presentWithoutAck += 1
            if !data.faults { result.problem("window \(window): v\(version) is present but was never acknowledged") }
        }
        do {
            var graph = try context.openedWindow(scene: scene)
            var version: UInt64 = 0
            for point in points {
                let candidates = data.records.filter { record in
                    guard record.window == window, record.generation == point.generation - 1,
                          case .unknown = record.outcome
                    else { return false }
                    return true
                }.map(\.command)
                guard point.version >= version else {
                    result.problem("window \(window): \(point.label) is v\(point.version), below v\(version) seen before")
                    return
                }
                guard let (next, matched) = try advance(
                    graph, scene: scene, from: version, to: point, known: known, candidates: candidates)
                else {
                    result.problem("window \(window): \(point.label) (v\(point.version)) is not the replay of the acknowledged commands"
                        + (candidates.isEmpty ? "" : " plus any of the \(candidates.count) calls left without a reply"))
                    return
                }
                result.matchedToUnanswered += matched
                graph = next
                version = point.version
                if point.generation != Int.max { result.restoresCompared += 1 }
            }
            result.windowsReplayed += 1
        } catch {
            result.problem("window \(window): replay failed: \(error)")
        }
    }

    /// Replays from `version` to `point`: known changes in order; each unknown version is tried with every
    /// unused candidate (depth-first) until the state equals the point's snapshot. Returns the window at
    /// the point and how many candidates were used, or nil when nothing matches.
    private func advance(
        _ graph: NavigationWindow, scene: String, from version: UInt64, to point: Point, known: [UInt64: [Source]],
        candidates: [LoadCommand]
    ) throws -> (NavigationWindow, Int)? {
        var current = version
        // Known prefix on the window itself: a failure here is a divergence, not a search miss.
        while current < point.version, let sources = known[current + 1] {
            try applyFirst(sources, to: graph, scene: scene, expecting: current + 1)
            current += 1
        }
        if current == point.version { return graph.snapshot() == point.snapshot ? (graph, 0) : nil }
        return try search(graph, scene: scene, at: current, to: point, known: known, remaining: candidates)
    }

    private func search(
        _ graph: NavigationWindow, scene: String, at version: UInt64, to point: Point, known: [UInt64: [Source]],
        remaining: [LoadCommand]
    ) throws -> (NavigationWindow, Int)? {
        if version == point.version { return graph.snapshot() == point.snapshot ? (graph, 0) : nil }
        if let sources = known[version + 1] {
            let copy = try context.clone(graph)
            guard (try? applyFirst(sources, to: copy, scene: scene, expecting: version + 1)) != nil else { return nil }
            return try search(copy, scene: scene, at: version + 1, to: point, known: known, remaining: remaining)
        }
        var tried: Set<LoadCommand> = []
        for (index, candidate) in remaining.enumerated() where tried.insert(candidate).inserted {
            let copy = try context.clone(graph)
            guard (try? apply(.command(candidate), to: copy, scene: scene, expecting: version + 1)) != nil else { continue }
            var rest = remaining
            rest.remove(at: index)
            if let (found, used) = try search(copy, scene: scene, at: version + 1, to: point, known: known, remaining: rest) {
                return (found, used + 1)
            }
        }
        return nil
    }

    /// Applies the first of `sources` that makes the change to `version` (the others were no-ops or
    /// failed, which changes nothing); throws the first one's error when none does.
    private func applyFirst(_ sources: [Source], to graph: NavigationWindow, scene: String, expecting version: UInt64) throws {
        var firstError: (any Error)?
        for source in sources {
            do {
                try apply(source, to: graph, scene: scene, expecting: version)
                return
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    private func apply(_ source: Source, to graph: NavigationWindow, scene: String, expecting version: UInt64) throws {
        let batch: [BatchCommand]
        switch source {
        case .command(let command): batch = try command.batch(scene: scene, context: context)
        case .batch(let commands): batch = commands
        }
        let event: ChangeEvent
        do {
            event = try graph.apply(batch)
        } catch {
            throw LoadError("v\(version): \(error.message) applying \(batch.count) command(s)")
        }
        _ = graph.drainEffects()
        _ = graph.drainMessages()
        guard event.version == Int(version) else {
            throw LoadError("v\(version): the replay reached v\(event.version)")
        }
    }
}
