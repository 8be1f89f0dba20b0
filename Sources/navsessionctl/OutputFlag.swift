import ArgumentParser

/// The help of `--json` for the subcommands whose output scripts read; each declares the flag itself (see
/// ``ConnectingCommand`` for why not an option group).
enum OutputFlag {
    static let help = ArgumentHelp("Print JSON (one object or value per line) instead of text.")
}

/// The help of `--json` for `state` and `routes`, which always print JSON: it only chooses one line over indented.
///
/// A plain flag in each of the two commands rather than an option group: swift-argument-parser reflects every
/// option-group type on each launch (four conformance scans of the whole binary, ≈ 0.8 M instructions), and
/// `routes` is the call scripts make most (Docs/performance.md, "navsessionctl").
enum CompactJSONFlag {
    static let help = ArgumentHelp("Print the JSON on one line, as the daemon sent it (default: indented two spaces).")
}
