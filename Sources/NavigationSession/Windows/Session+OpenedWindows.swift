import NavigationCore

/// A batch's `openWindow` commands are effects, carried out after the change commits; one that cannot
/// open its window would leave the batch applied with a failed effect. So a batch that would open more
/// windows than the session may hold is refused before anything applies (`Apply` stays all or nothing):
/// 256 `openWindow`s at the window limit were once a success reply and 217 KB of log warnings.
extension Session {
    /// Throws `LimitsExceeded` naming the window limit when `batch` would open more windows than remain, in
    /// the session or in `client`'s window share (``SessionLimits/maxClientWindows``).
    ///
    /// Counts what would open: every `openWindow` of a multi-instance scene, and each single-instance
    /// scene not open yet once (a second `openWindow` of it returns the same window). Unknown scenes are
    /// left to the effect, which reports `UnknownScene`.
    func checkWindowsOpened(by batch: [BatchCommand], client: String?) throws(SessionError) {
        var opened = 0
        var singletons: Set<String> = []
        func count(_ command: NavigationCommand) {
            switch command {
            case .openWindow(let name, _):
                guard let scene = manifest.scene(name) else { return }
                if scene.instances == .multiple {
                    opened += 1
                } else if !windows.contains(where: { $0.scene == name }), singletons.insert(name).inserted {
                    opened += 1
                }
            case .sequence(let commands):
                commands.forEach(count)
            default:
                break
            }
        }
        batch.forEach { count($0.command) }
        guard opened > 0 else { return }
        let room = limits.maxWindows - order.count
        guard opened <= room else {
            throw .limitsExceeded(
                "the batch would open \(opened) windows; \(order.count) of at most \(limits.maxWindows) are open "
                    + "(SessionLimits.maxWindows), so \(room) more may open")
        }
        if let client {
            let share = limits.maxClientWindows - clientBudgets.windows(of: client)
            guard opened <= share else {
                throw .limitsExceeded(
                    "the batch would open \(opened) windows; a client may have opened at most "
                        + "\(limits.maxClientWindows) open windows (per-client window share), so \(max(0, share)) more may open")
            }
        }
        let numbersLeft = Int(WindowNumbering.highest - min(nextWindowNumber, WindowNumbering.highest)) + 1
        guard opened <= numbersLeft else {
            throw .limitsExceeded(
                "the batch would open \(opened) windows; only \(numbersLeft) window numbers remain "
                    + "(up to \(WindowNumbering.highest))")
        }
    }
}

/// A batch's `dismissWindow` commands are effects too: a window its marks keep open would leave the batch
/// applied and the window where it was, with only a log line to say why. So a batch that would dismiss a protected
/// window is refused before anything applies. (A window that is not open stays the effect's failure, reported to
/// the window's watchers as `Effect("effectFailed")`.)
extension Session {
    /// Throws `Prevented` (the first mark of the target window) when `batch` dismisses a window with protected
    /// models — unless the batch removes marks of its own window first (`unprotect`), which the effect then
    /// checks.
    func checkWindowsDismissed(by batch: [BatchCommand], in number: WindowNumber) throws(SessionError) {
        var targets: [String?] = []
        var unprotects = false
        func collect(_ command: NavigationCommand) {
            switch command {
            case .dismissWindow(let id): targets.append(id)
            case .unprotect: unprotects = true
            case .sequence(let commands): commands.forEach(collect)
            default: break
            }
        }
        batch.forEach { collect($0.command) }
        for id in targets {
            guard let target = try? Self.windowNumber(id, default: number), let window = windowsByNumber[target],
                !(target == number && unprotects), let error = closeRefusal(of: window)
            else { continue }
            noteRefusal(error, in: target)
            throw .navigation(error)
        }
    }
}
