import ArgumentParser

/// `--json` for the subcommands whose output scripts read.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON (one object or value per line) instead of text.")
    var json = false
}
