// swift-tools-version:6.0
import PackageDescription

/// Applied to every target: Swift 6 language mode is the package default; keep concurrency checking complete.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "remindd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "remindctl", targets: ["remindctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Pure core: rules, time-zone arithmetic, next-fire computation, suppression. No I/O, no clock reads.
        .target(name: "ReminderCore", swiftSettings: strictSettings),
        // Adapter: reads TZif files from the system's tzdata (/usr/share/zoneinfo) and finds the system zone.
        .target(name: "TimeZoneDatabase", dependencies: ["ReminderCore"], swiftSettings: strictSettings),
        // Thin executable: the control CLI.
        .executableTarget(
            name: "remindctl",
            dependencies: [
                "ReminderCore", "TimeZoneDatabase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Benchmark executable: next-fire speed against Foundation's Calendar in the same run.
        .executableTarget(
            name: "NextFireBenchmark",
            dependencies: ["ReminderCore", "TimeZoneDatabase"],
            path: "Benchmarks/NextFireBenchmark",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReminderCoreTests", dependencies: ["ReminderCore", "TimeZoneDatabase"],
            resources: [.copy("Resources/calendar-vectors.jsonl")], swiftSettings: strictSettings),
        .testTarget(name: "TimeZoneDatabaseTests", dependencies: ["ReminderCore", "TimeZoneDatabase"], swiftSettings: strictSettings),
    ]
)
