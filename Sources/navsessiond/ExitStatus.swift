/// navsessiond's exit statuses, each documented in navsessiond(1), EXIT STATUS. The specific
/// ones follow sysexits(3), so a supervisor can tell a configuration mistake (which a restart cannot fix) from a
/// failure that a restart may (Restart=on-failure; `RestartPreventExitStatus=64 65 66 78` in the unit stops the loop for the first).
enum ExitStatus {
    /// Any other failure: the bus cannot be reached or is lost, the state directory is locked by another daemon
    /// or cannot be used, the session cannot be stored.
    static let failure: Int32 = 1
    /// The bus name was taken over while serving by a process that is not a `navsessiond --replace`.
    static let nameTaken: Int32 = 3
    /// A usage error: an unknown option or a bad option value (EX_USAGE).
    static let usage: Int32 = 64
    /// The manifest is invalid (EX_DATAERR): `--manifest`, the one installed for `--name`, or `--check-manifest`'s.
    static let invalidManifest: Int32 = 65
    /// The manifest file cannot be read (EX_NOINPUT).
    static let unreadableManifest: Int32 = 66
    /// The bus name is already owned at start and `--replace` was not given (EX_UNAVAILABLE).
    static let nameOwned: Int32 = 69
    /// A shutdown did not finish within its deadline (EX_SOFTWARE).
    static let shutdownDeadline: Int32 = 70
    /// No manifest is installed for `--name` (EX_CONFIG), naming every path looked at (Docs/applications.md).
    static let unknownApplication: Int32 = 78
}
