/// The settings of one run, from the command line.
struct FuzzOptions: Sendable {
    var seed: UInt64
    var calls: Int
    var keepGoing: Bool
    var timeout: Duration
    var maximumResidentBytes: Int
    /// VmRSS at which the daemon is killed during a call, to protect the machine.
    var killResidentBytes: Int
    var maximumDescriptors: Int
    var sampleEvery: Int
    var maximumStringBytes: Int
    var maximumMessageBytes: Int
    var maximumArrayLength: Int
    var maximumWindows: Int
    var vanishProbability: Double
    var progressEvery: Int
    /// How many failure reports to print in full (all are counted).
    var printedFailures: Int
    /// `--misbehaving-provider`: the run's guard provider, when there is one.
    var misbehavingProvider: Bool = false
    /// The options that change the calls made, as flags, for the reproduce line.
    var generationFlags: [String]
}
