/// The release of this package, one value for every binary's `--version` and the `Version` the tools report.
public enum NavSessionRelease {
    /// Semantic version of the NavSession package (the D-Bus interfaces carry their own major in their
    /// names: `Session1`, `Window1`).
    public static let version = "0.5.0"
}
