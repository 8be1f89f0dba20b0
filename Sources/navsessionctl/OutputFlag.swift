import ArgumentParser

/// The help of `--json` for the subcommands whose output scripts read; each declares the flag itself.
enum OutputFlag {
    static let help = ArgumentHelp("Print JSON (one object or value per line) instead of text.")
}

/// The help of `--json` for `state` and `routes`, which always print JSON: it only chooses one line over indented.
enum CompactJSONFlag {
    static let help = ArgumentHelp("Print the JSON on one line, as the daemon sent it (default: indented two spaces).")
}
