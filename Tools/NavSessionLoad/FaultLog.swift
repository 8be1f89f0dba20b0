/// What the faults did, for the report.
struct FaultLog {
    /// The fault that started each generation (1, 2, …).
    var faultOf: [Int: Fault] = [:]
    /// SIGKILL to name owned again, per kill.
    var restartTimes: [Duration] = []
    /// Start of `navsessiond --replace` to the new instance owning the name and the old one gone, per takeover.
    var takeoverTimes: [Duration] = []
    /// The replaced instances' exit statuses (a handover exits 0).
    var replacedStatuses: [Int32] = []
    /// Takeovers whose `navsessiond --replace` exited before owning the name: its status and log tail.
    var failedTakeovers: [String] = []
    var secondDaemons: [SecondDaemonStart] = []

    func count(_ fault: Fault) -> Int { faultOf.values.filter { $0 == fault }.count }
}
