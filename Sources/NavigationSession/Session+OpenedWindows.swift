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
