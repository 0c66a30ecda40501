// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ICSKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CalendarModel", targets: ["CalendarModel"]),
        .executable(name: "icskit", targets: ["icskit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"]), .brew(["libical"])]
        ),
        .target(name: "CalendarModel", dependencies: ["CLibical"]),
        .executableTarget(
            name: "icskit",
            dependencies: [
                "CalendarModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "ICSKitBench", dependencies: ["CalendarModel"], path: "Benchmarks/ICSKitBench"),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel"]),
        .testTarget(name: "ICSKitCLITests", dependencies: ["CalendarModel", "icskit"]),
    ],
    swiftLanguageModes: [.v6]
)
