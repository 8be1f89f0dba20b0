import NavigationCore

/// Window groups (Session1 `GroupWindows`; Window1 `Group`; Docs/desktop.md "Window groups"): windows that close
/// together, reopen together from the recently closed list, and are saved and opened together by named sessions —
/// a browser's tab group, or an application's document window with its inspector.
extension Session {
    /// The windows of `name`, in window order.
    public func windows(inGroup name: String) -> [SessionWindow] { windows.filter { $0.group == name } }

    /// Makes `numbers` the group `name` (each leaving the group it was in; windows of `name` not listed leave it); an
    /// empty list dissolves the group. Journaled.
    /// - Throws: ``SessionError/invalidArguments(_:)`` (a name outside 1–64 of letters, digits, '-', '_', '.', ' ';
    ///   a window named twice), ``SessionError/unknownWindow(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func groupWindows(
        _ name: String, windows numbers: [WindowNumber], client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        try Self.checkSessionName(name, what: "group name")
        guard Set(numbers).count == numbers.count else { throw .invalidArguments("a window is named twice") }
        for number in numbers { _ = try window(number) }
        // A group decides when its windows close: each window it adds or takes away must let the caller change it.
        try acting(as: client) { () throws(SessionError) in
            for window in windows where numbers.contains(window.number) || window.group == name { try checkPolicy(window) }
        }
        var events: [SessionEvent] = []
        try setGroup(name, windows: numbers, events: &events)
        return outcome(window: nil, events: events)
    }

    /// Sets the group and journals it; the windows whose group changed are in `events` (`grouped`).
    func setGroup(_ name: String, windows numbers: [WindowNumber], events: inout [SessionEvent]) throws(SessionError) {
        let changed = applyGroup(name, numbers)
        guard !changed.isEmpty else { return }
        try persist(.group(name: name, windows: numbers))
        events += changed.map(SessionEvent.grouped)
    }

    /// The group in memory (also the journal's replay); returns the windows whose group changed.
    @discardableResult
    func applyGroup(_ name: String, _ numbers: [WindowNumber]) -> [WindowNumber] {
        let members = Set(numbers)
        var changed: [WindowNumber] = []
        for window in windows {
            let now: String? = members.contains(window.number) ? name : (window.group == name ? nil : window.group)
            if now != window.group {
                window.group = now
                changed.append(window.number)
            }
        }
        return changed
    }

    /// The windows that close with window `number`: it, then the other windows of its group.
    func closingTogether(with number: WindowNumber) -> [WindowNumber] {
        guard let group = windowsByNumberGroup(number) else { return [number] }
        return [number] + windows.filter { $0.group == group && $0.number != number }.map(\.number)
    }

    private func windowsByNumberGroup(_ number: WindowNumber) -> String? { (try? window(number))?.group }
}
