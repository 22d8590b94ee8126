// swift-tools-version:6.0
import PackageDescription

/// Applied to every target: Swift 6 language mode is the package default; keep concurrency checking complete.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// The installed programs are hardened as Debian builds its packages: relocations read-only and every symbol
/// bound at start (`-z relro -z now`: lintian's hardening-no-bindnow).
let hardenedLinking: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now"])]

/// The C shims are built with glibc's checked string and memory functions (`_FORTIFY_SOURCE`, which needs an
/// optimised build); the Swift code has no such switch: its bounds are checked by the language.
let fortifiedC: [CSetting] = [.unsafeFlags(["-O2", "-D_FORTIFY_SOURCE=2"])]

let package = Package(
    name: "remindd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "remindctl", targets: ["remindctl"]),
        .executable(name: "remindd", targets: ["remindd"]),
        .executable(name: "remindd-web", targets: ["remindd-web"]),
    ],
    // Exact versions: the ones the tests passed with (Package.resolved is not kept: the package mirror's commit
    // ids are not GitHub's). Their own dependencies (swift-atomics, swift-system, swift-async-algorithms) resolve
    // within the ranges these versions name.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        // Pure core: rules, time-zone arithmetic, next-fire computation, suppression. No I/O, no clock reads.
        // The version is debian/changelog's first line (Resources/changelog links to it), embedded when built.
        .target(name: "ReminderCore", resources: [.embedInCode("Resources/changelog")], swiftSettings: strictSettings),
        // Adapter: reads TZif files from the system's tzdata (/usr/share/zoneinfo) and finds the system zone.
        .target(name: "TimeZoneDatabase", dependencies: ["ReminderCore"], swiftSettings: strictSettings),
        // Pure habit rules: days, streaks with rest days and freezes, recovery, achievements, strength.
        .target(name: "HabitCore", dependencies: ["ReminderCore"], swiftSettings: strictSettings),
        // Pure fitness rules: the exercise library (from a data file), MET intensities, ACSM calories.
        .target(name: "FitnessCore", dependencies: ["ReminderCore"], swiftSettings: strictSettings),
        // The daemon's pure decisions: which firings are due, what to announce, what to sleep until.
        .target(
            name: "ReminderScheduling",
            dependencies: ["ReminderCore", .product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: strictSettings
        ),
        // libsystemd for Swift: the C module, then the wrappers (journal, sd_notify, socket activation, wall-clock timer).
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "SystemdSupport", dependencies: ["CSystemd", "JournalNative"], swiftSettings: strictSettings),
        // The journal's native protocol without libsystemd (a datagram on a connected socket, or a sealed memfd for a
        // large entry), for remindctl, which links no libsystemd, and the daemon: the C part (SCM_RIGHTS,
        // memfd_create), then the entries.
        .target(name: "CJournalNative", cSettings: fortifiedC),
        .target(name: "JournalNative", dependencies: ["CJournalNative"], swiftSettings: strictSettings),
        // Messages in the user's language: glibc's gettext and LC_TIME names (the C part), the catalog port with
        // its gettext adapter and English as written.
        .target(name: "CGettext", cSettings: fortifiedC),
        .target(name: "Translation", dependencies: ["CGettext", "ReminderCore"], swiftSettings: strictSettings),
        // Adapter: the SQLite store (GRDB), schema migrations, durable record of fired slots.
        .target(
            name: "ReminderStore",
            dependencies: ["FitnessCore", "ReminderCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        // The Varlink protocol (varlink.org): NUL-framed JSON messages, errors, a blocking client. No NIO.
        .target(name: "VarlinkProtocol", swiftSettings: strictSettings),
        // Adapter: a Varlink server on a Unix socket (or a socket-activated descriptor), with SwiftNIO.
        .target(
            name: "VarlinkServer",
            dependencies: [
                "VarlinkProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The Varlink catalogue shared by the daemon and remindctl: every method of io.remindd.Reminders, Habits,
        // Fitness and Routines with its parameter and reply types, the errors, the records, and the IDL files.
        .target(
            name: "ReminderInterface", dependencies: ["ReminderCore", "VarlinkProtocol"],
            resources: [
                .embedInCode("IDL/io.remindd.Reminders.varlink"), .embedInCode("IDL/io.remindd.Habits.varlink"),
                .embedInCode("IDL/io.remindd.Fitness.varlink"), .embedInCode("IDL/io.remindd.Routines.varlink"),
                .embedInCode("IDL/io.remindd.Backup.varlink"), .embedInCode("IDL/io.remindd.Medication.varlink"),
            ],
            swiftSettings: strictSettings),
        // The daemon: ports (clock, announcer, status), feature services with their routes, announcers (journal,
        // Watch), and the composition root that production and tests build alike.
        .target(
            name: "ReminderDaemon",
            dependencies: [
                "FitnessCore", "HabitCore", "ReminderCore", "ReminderInterface", "ReminderScheduling", "ReminderStore", "SystemdSupport", "TimeZoneDatabase",
                "Translation", "VarlinkProtocol", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // Test kit: a seeded random generator and noisy text for property and fuzz tests (links nothing else).
        .target(name: "SeededRandom", swiftSettings: strictSettings),
        // Test kit: a whole daemon in-process on a manual clock, a recording announcer and an in-memory store.
        .target(
            name: "ReminderDaemonTesting",
            dependencies: [
                "ReminderDaemon", "ReminderCore", "ReminderInterface", "ReminderStore", "FitnessCore", "SystemdSupport", "TimeZoneDatabase", "Translation",
                "VarlinkProtocol", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Thin executable: the daemon.
        .executableTarget(
            name: "remindd",
            dependencies: [
                "ReminderDaemon", "ReminderInterface", "SystemdSupport", "FitnessCore", "ReminderCore", "ReminderStore", "TimeZoneDatabase", "Translation",
                "VarlinkServer",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: hardenedLinking
        ),
        // remindctl's commands and its one output layer, run against a CommandContext (the daemon, output,
        // environment, clock, zone) that tests replace.
        .target(
            name: "RemindCommands",
            dependencies: [
                "HabitCore", "JournalNative", "ReminderCore", "ReminderInterface", "TimeZoneDatabase", "Translation", "VarlinkProtocol", "WebLogin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The web window's login (its port, the one-time token file) and the process environment, shared by
        // remindctl (`remindctl ui` writes the token) and remindd-web (which spends it). No NIO, no Foundation.
        .target(name: "WebLogin", swiftSettings: strictSettings),
        // remindd-web's pages, sessions and security checks, its HTTP listener (SwiftNIO's HTTP/1.1) and its port
        // to remindd (Varlink). The report's charts and PDF are remindctl's (RemindCommands' ReportDocuments).
        .target(
            name: "WebInterface",
            dependencies: [
                "RemindCommands", "ReminderCore", "ReminderInterface", "Translation", "VarlinkProtocol", "WebLogin",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        // Thin executable: the web window.
        .executableTarget(
            name: "remindd-web",
            dependencies: [
                "ReminderCore", "SystemdSupport", "TimeZoneDatabase", "Translation", "WebInterface", "WebLogin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings, linkerSettings: hardenedLinking),
        // Thin executable: the control CLI.
        // remindctl links the Swift runtime statically: a short command's start is mostly loading shared
        // libraries (about 3 ms instead of 12; remindd cannot: NIO's executor hook needs the shared runtime).
        // The runtime's libstdc++ too (StaticLibraries/ holds a link to Debian 12's libstdc++.a, found before
        // the shared one; where it is missing, the shared one is linked): loading libstdc++.so resolved its
        // 3,261 symbol relocations at every start. And none of remindctl's own 9,400 symbols is exported
        // (`-static-stdlib` exports them, and the runtime's start scans them for its own path).
        .executableTarget(
            name: "remindctl", dependencies: ["RemindCommands"], swiftSettings: strictSettings,
            linkerSettings: hardenedLinking + [.unsafeFlags([
                "-static-stdlib", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
                "-Xlinker", "--no-export-dynamic", "-L", Context.packageDirectory + "/StaticLibraries",
            ])]),
        // Benchmark executable: next-fire speed against Foundation's Calendar in the same run.
        .executableTarget(
            name: "NextFireBenchmark",
            dependencies: ["ReminderCore", "TimeZoneDatabase"],
            path: "Benchmarks/NextFireBenchmark",
            swiftSettings: strictSettings
        ),
        // The Varlink certification suite (org.varlink.certification) for VarlinkServer and VarlinkConnection,
        // run against the reference implementation's client and server by Tests/e2e/test_varlink_certification.py.
        .executableTarget(
            name: "varlink-certification",
            dependencies: ["VarlinkProtocol", "VarlinkServer"],
            path: "Tests/VarlinkCertification",
            resources: [.embedInCode("org.varlink.certification.varlink")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReminderCoreTests", dependencies: ["ReminderCore", "TimeZoneDatabase", "SeededRandom"],
            resources: [.copy("Resources/calendar-vectors.jsonl")], swiftSettings: strictSettings),
        .testTarget(name: "HabitCoreTests", dependencies: ["HabitCore", "ReminderCore"], swiftSettings: strictSettings),
        .testTarget(name: "FitnessCoreTests", dependencies: ["FitnessCore", "ReminderCore"], swiftSettings: strictSettings),
        .testTarget(name: "ReminderSchedulingTests", dependencies: ["ReminderScheduling", "ReminderCore", "TimeZoneDatabase"], swiftSettings: strictSettings),
        .testTarget(name: "ReminderStoreTests", dependencies: ["ReminderStore", "ReminderCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "VarlinkTests",
            dependencies: [
                "VarlinkProtocol", "VarlinkServer", "SeededRandom", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ReminderDaemonTests",
            dependencies: [
                "ReminderDaemon", "ReminderDaemonTesting", "ReminderCore", "ReminderInterface", "ReminderScheduling", "HabitCore", "SystemdSupport",
                "Translation", "VarlinkProtocol", "SeededRandom",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "RemindCommandsTests",
            dependencies: ["RemindCommands", "ReminderCore", "ReminderInterface", "VarlinkProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings),
        .testTarget(name: "ReminderInterfaceTests", dependencies: ["ReminderInterface", "VarlinkProtocol"], swiftSettings: strictSettings),
        .testTarget(name: "WebInterfaceTests", dependencies: ["WebInterface", "WebLogin", "ReminderInterface", "Translation"], swiftSettings: strictSettings),
        .testTarget(name: "TranslationTests", dependencies: ["Translation", "ReminderCore"], swiftSettings: strictSettings),
        .testTarget(name: "TimeZoneDatabaseTests", dependencies: ["ReminderCore", "TimeZoneDatabase"], swiftSettings: strictSettings),
    ]
)
