// swift-tools-version:6.1
import PackageDescription

/// Where the tools' packages are used: only with the trait Tools.
let tools = TargetDependencyCondition.when(traits: ["Tools"])

let package = Package(
    name: "ICSKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CalendarModel", targets: ["CalendarModel"]),
        .library(name: "CalendarStore", targets: ["CalendarStore"]),
        .library(name: "CalendarMerge", targets: ["CalendarMerge"]),
        .library(name: "CalendarSync", targets: ["CalendarSync"]),
        .executable(name: "icskit", targets: ["icskit"]),
    ],
    // The library, CalendarModel, needs nothing but libical. Everything else (the icskit tool, the store, merge,
    // sync, the feed server, their tests and benchmarks) is built with the trait Tools — `swift build --traits
    // Tools`, as the Makefile does — and only then are the server packages below resolved: an app that depends on
    // CalendarModel alone pins none of them (LibraryPackageTests).
    traits: [
        .trait(name: "Tools", description: "icskit, the store, merge, sync and the feed server, with their packages"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // AsyncHTTPClient's own foundations, named because CalendarSync uses their types directly (the event loop
        // it runs on, headers, TLS certificates, decompression errors).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        // SHA-256 for shared feeds' tokens and UIDs; already in the graph through AsyncHTTPClient's TLS stack.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        // The CLI's config file ($XDG_CONFIG_HOME/icskit/config.toml).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"]), .brew(["libical"])]
        ),
        .target(name: "CalendarModel", dependencies: ["CLibical"]),
        .target(name: "CalendarMerge", dependencies: ["CalendarModel"]),
        .target(
            name: "CalendarStore",
            dependencies: [
                "CalendarModel", "CalendarMerge", .product(name: "GRDB", package: "GRDB.swift", condition: tools),
            ]),
        // Web calendars, CalDAV and vdirs synced with the store; HTTP through AsyncHTTPClient (see HTTPClient).
        .target(
            name: "CalendarSync",
            dependencies: [
                "CalendarModel", "CalendarMerge",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOPosix", package: "swift-nio", condition: tools),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: tools),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: tools),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: tools),
            ]),
        // Shared feeds served over HTTP (`icskit serve`): SwiftNIO's HTTP/1.1 server, the feeds from a source the
        // caller gives (the store, through ICSKitCLI).
        .target(
            name: "CalendarServe",
            dependencies: [
                "CalendarModel",
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOPosix", package: "swift-nio", condition: tools),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: tools),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: tools),
                .product(name: "Crypto", package: "swift-crypto", condition: tools),
            ]),
        // The store as CalendarSync's keeper (its protocols' conformances), where the two meet.
        .target(
            name: "CalendarStoreSync",
            dependencies: ["CalendarModel", "CalendarMerge", "CalendarStore", "CalendarSync"]),
        // Every command, and what they share (output, time windows, the HTML week page and its layout), in a
        // library; the executable is a one-line `main`.
        .target(
            name: "ICSKitCLI",
            dependencies: [
                "CalendarModel", "CalendarStore", "CalendarMerge", "CalendarSync", "CalendarStoreSync", "CalendarServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                .product(name: "TOMLKit", package: "TOMLKit", condition: tools),
            ],
            // The HTML week page's style and script, compiled into the binary (no resource bundle to install).
            resources: [.embedInCode("Resources/week.css"), .embedInCode("Resources/week.js")]
        ),
        .executableTarget(name: "icskit", dependencies: ["ICSKitCLI"]),
        .executableTarget(
            name: "ICSKitBench", dependencies: ["CalendarModel", "CalendarSync"], path: "Benchmarks/ICSKitBench"),
        // The fuzz targets (a library, so the tests replay regression inputs through the same code) and their
        // driver: a libFuzzer binary when `make fuzz` builds it with -sanitize=fuzzer, a replay tool otherwise.
        .target(
            name: "ICSKitFuzzTargets",
            dependencies: ["CalendarModel", "CalendarStore", "CalendarMerge", "CalendarServe"],
            path: "Fuzz/Targets"),
        .executableTarget(name: "icskit-fuzz", dependencies: ["ICSKitFuzzTargets"], path: "Fuzz/Driver"),
        // What an app developer copies: a planner's own Task and Event mapped to iCalendar and back (the DocC
        // tutorial walks through it), and every Swift block of README and the DocC articles, run by a test.
        .executableTarget(name: "TaskPlannerExample", dependencies: ["CalendarModel"], path: "Examples/TaskPlanner"),
        .executableTarget(name: "DocExamples", dependencies: ["CalendarModel"], path: "Examples/DocExamples"),
        // Two programs an app developer copies: "this and following" in one call, and alarm times across DST.
        .executableTarget(
            name: "SeriesEditingExample", dependencies: ["CalendarModel"], path: "Examples/SeriesEditing"),
        .executableTarget(name: "AlarmTimesExample", dependencies: ["CalendarModel"], path: "Examples/AlarmTimes"),
        // What the test targets share (a seeded generator for the random tests).
        .target(name: "ICSKitTestSupport", dependencies: ["CalendarSync"], path: "Tests/Support"),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel", "ICSKitTestSupport"]),
        .testTarget(name: "CalendarMergeTests", dependencies: ["CalendarModel", "CalendarMerge", "ICSKitTestSupport"]),
        .testTarget(
            name: "CalendarStoreTests",
            dependencies: [
                "CalendarModel", "CalendarStore", "CalendarMerge", "ICSKitTestSupport",
                .product(name: "GRDB", package: "GRDB.swift", condition: tools),
            ]),
        .testTarget(
            name: "CalendarSyncTests",
            dependencies: [
                "CalendarModel", "CalendarStore", "CalendarSync", "CalendarStoreSync", "CalendarServe",
                "ICSKitTestSupport",
            ]),
        .testTarget(
            name: "ICSKitCLITests",
            dependencies: [
                "CalendarModel", "CalendarStore", "CalendarSync", "ICSKitCLI", "icskit", "icskit-fuzz",
                "TaskPlannerExample", "DocExamples", "SeriesEditingExample", "AlarmTimesExample", "ICSKitTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
