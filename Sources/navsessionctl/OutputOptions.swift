import ArgumentParser

/// `--json` for the subcommands whose output scripts read.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (one object or value per line) instead of text.")
    var json = false
}

/// `--json` for `state` and `routes`, which always print JSON: it only chooses one line over indented.
struct CompactJSONOptions: ParsableArguments {
    @Flag(help: "Print the JSON on one line, as the daemon sent it (default: indented two spaces).")
    var json = false
}
