// swift-tools-version:6.1
import PackageDescription

// Settings every Swift target shares: Swift 6 mode is set package-wide below;
// these upcoming features keep the code honest about existentials and imports.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "NavSession",
    // Products are what users depend on or run; the tools under Tools/ (fuzzers, load, benchmarks, test
    // support) are targets of this package, built and run from it (`swift run navsession-fuzz`), and no
    // product. An executable target's name is its command's name.
    products: [
        .library(name: "DBusKit", targets: ["DBusKit"]),
        .library(name: "NavigationCore", targets: ["NavigationCore"]),
        .library(name: "NavigationRouting", targets: ["NavigationRouting"]),
        .library(name: "NavigationSession", targets: ["NavigationSession"]),
        .library(name: "NavSessionClient", targets: ["NavSessionClient"]),
        .library(name: "NavSessionTesting", targets: ["NavSessionTesting"]),
        .executable(name: "navsessiond", targets: ["navsessiond"]),
        .executable(name: "navsessionctl", targets: ["navsessionctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    ],
    targets: [
        // MARK: Processes (C only in the C* shim modules)
        .target(name: "CProcessShims"),
        .target(name: "ProcessSupport", dependencies: ["CProcessShims"], swiftSettings: swiftSettings),

        // MARK: D-Bus layer
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .target(name: "CDBusShims", dependencies: ["CDBus"]),
        .target(
            name: "DBusKit",
            dependencies: ["CDBus", "CDBusShims", "ProcessSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: Navigation (pure Swift, no D-Bus)
        .target(
            name: "NavigationCore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NavigationRouting",
            dependencies: ["NavigationCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NavigationSession",
            dependencies: [
                "NavigationCore", "NavigationRouting", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The D-Bus contract's names (no dependencies: service, client and tools share them)
        .target(name: "NavSessionInterface", swiftSettings: swiftSettings),

        // MARK: Service (D-Bus objects over the session)
        .target(
            name: "NavSessionService",
            dependencies: [
                "DBusKit", "NavSessionInterface", "NavigationSession", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Client library and test kit (Docs/client.md, Docs/testing.md)
        .target(
            name: "NavSessionClient",
            dependencies: ["DBusKit", "NavSessionInterface", "NavigationCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NavSessionTesting",
            dependencies: ["NavSessionClient", "DBusKit", "DBusTestSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: Executables
        .executableTarget(
            name: "navsessiond",
            dependencies: [
                "ProcessSupport",
                "DBusKit",
                "NavigationCore",
                "NavigationSession",
                "NavSessionService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "navsessionctl",
            dependencies: [
                "ProcessSupport",
                "DBusKit",
                "NavSessionClient",
                "NavSessionInterface",
                "NavigationCore",
                "NavigationRouting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Tools (Tools/): test support, fuzzers, load, benchmarks — targets, not products
        // Private buses, child processes and tool runs for the tests, the test kit and the tools.
        .target(
            name: "DBusTestSupport",
            dependencies: ["DBusKit", "ProcessSupport"],
            path: "Tools/DBusTestSupport",
            swiftSettings: swiftSettings
        ),
        // Leak/latency soak for DBusKit (run under valgrind by hand; see Docs/dbus-layer.md).
        .executableTarget(
            name: "dbus-soak",
            dependencies: ["DBusKit"],
            path: "Tools/DBusSoak",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "navigation-benchmark",
            dependencies: ["NavigationCore"],
            path: "Tools/NavigationBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "session-benchmark", path: "Tools/SessionBenchmark", swiftSettings: swiftSettings),
        // D-Bus fuzzer for navsessiond (Docs/fuzzing-dbus.md).
        .executableTarget(
            name: "navsession-fuzz",
            dependencies: [
                "DBusKit", "DBusTestSupport", "NavigationCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/NavSessionFuzz",
            swiftSettings: swiftSettings
        ),
        // Load and fault test of navsessiond (Docs/load-and-faults.md).
        .executableTarget(
            name: "navsession-load",
            dependencies: [
                "DBusKit", "DBusTestSupport", "NavigationCore", "NavigationSession",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/NavSessionLoad",
            swiftSettings: swiftSettings
        ),
        // Fuzzing harness entry points; libFuzzer drivers are built by scripts/fuzz (Docs/fuzzing-parsers.md).
        .target(
            name: "ParserFuzzing",
            dependencies: [
                "NavigationCore", "NavigationRouting", "NavigationSession",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/ParserFuzzing",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "ProcessSupportTests",
            dependencies: ["ProcessSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DBusKitTests",
            dependencies: ["DBusKit", "DBusTestSupport", "ProcessSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavSessionClientTests",
            dependencies: ["NavSessionClient", "NavSessionTesting", "NavigationCore", "DBusKit", "DBusTestSupport", "navsessiond"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SessionBenchmarkTests",
            dependencies: ["DBusTestSupport", "session-benchmark"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavSessionCtlTests",
            dependencies: [
                "navsessionctl", "DBusKit", "DBusTestSupport", "NavSessionTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavigationCoreTests",
            dependencies: [
                "NavigationCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavigationRoutingTests",
            dependencies: [
                "NavigationRouting",
                "DBusTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavSessionServiceTests",
            dependencies: [
                "NavSessionService", "NavSessionInterface", "NavSessionTesting", "DBusKit", "DBusTestSupport", "navsessiond",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavSessionFuzzTests",
            dependencies: ["DBusTestSupport", "navsession-fuzz", "navsessiond"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavSessionFaultTests",
            dependencies: ["DBusKit", "DBusTestSupport", "NavSessionTesting", "navsession-load", "NavigationCore", "navsessiond"],
            swiftSettings: swiftSettings
        ),
        // The GTK reference renderer (Examples/gtk-renderer) under Xvfb; skipped without Xvfb or GTK 4 for Python.
        .testTarget(
            name: "GtkRendererTests",
            dependencies: ["DBusKit", "DBusTestSupport", "NavSessionTesting", "navsessiond"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NavigationSessionTests",
            dependencies: ["NavigationSession", "DBusTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ParserFuzzingTests",
            dependencies: ["ParserFuzzing"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
