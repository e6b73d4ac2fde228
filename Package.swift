// swift-tools-version:6.0
import PackageDescription

/// Herald: a keyboard-driven terminal feed reader.
///
/// Module boundaries carry the concurrency contract (see docs/ARCHITECTURE.md): only
/// `HeraldTerminal` imports the ncurses C module, so every ncurses call stays on its
/// `@MainActor` types.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "herald", targets: ["herald"]),
        .executable(name: "herald-bench", targets: ["herald-bench"]),
        // For the fuzz targets in Fuzz/, a package of their own that depends on this one.
        .library(name: "HeraldCore", targets: ["HeraldCore"]),
        .library(name: "HeraldStore", targets: ["HeraldStore"]),
        .library(name: "HeraldSync", targets: ["HeraldSync"]),
        .library(name: "HeraldNewsboat", targets: ["HeraldNewsboat"]),
    ],
    targets: [
        // System-library shims (module maps + static-inline helpers).
        .systemLibrary(name: "CNCursesW", path: "Sources/CNCursesW"),
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3"),
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd"),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The reader's signal handlers and the state they restore, compiled once (a C target:
        // static storage in a system-library header was copied into each module inlining it).
        .target(name: "CTerminalSignals"),

        .target(name: "HeraldCore", dependencies: ["CLibXML2"], swiftSettings: strict),
        .target(
            name: "HeraldStore", dependencies: ["HeraldCore", "CSQLite3", "CZlib", "CZstd"], swiftSettings: strict),
        .target(name: "HeraldFetch", dependencies: ["CCurl", "CZlib"], swiftSettings: strict),
        .target(
            name: "HeraldReload", dependencies: ["HeraldCore", "HeraldStore", "HeraldFetch", "CMalloc"],
            swiftSettings: strict),
        // Server accounts (FreshRSS and the Google Reader API, Tiny Tiny RSS, Fever): their
        // protocols' clients over the fetcher, and the sync between them and the library.
        .target(
            name: "HeraldAccounts", dependencies: ["HeraldCore", "HeraldStore", "HeraldFetch"],
            swiftSettings: strict),
        // The config file, settings, keys, actions and keymaps, the theme, and the programs
        // the settings name: below the UI, so commands that draw nothing do not import it.
        .target(name: "HeraldConfig", dependencies: ["HeraldCore"], swiftSettings: strict),
        .target(name: "HeraldUI", dependencies: ["HeraldCore", "HeraldConfig"], swiftSettings: strict),
        .target(name: "HeraldSync", dependencies: ["HeraldStore", "CZlib"], swiftSettings: strict),
        // Everything newsboat: its urls, config, filters and cache.db, read as hostile input
        // and translated to Herald's subscriptions, queries and config directives (judged by
        // HeraldConfig's own rules as they are made).
        .target(
            name: "HeraldNewsboat", dependencies: ["HeraldCore", "HeraldStore", "HeraldConfig", "CSQLite3"],
            swiftSettings: strict),
        .target(
            name: "HeraldTerminal",
            dependencies: ["HeraldUI", "HeraldConfig", "CNCursesW", "CTerminalSignals"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldCore", "HeraldStore", "HeraldFetch", "HeraldReload", "HeraldConfig", "HeraldUI", "HeraldTerminal",
                "HeraldSync", "HeraldNewsboat", "HeraldAccounts", "CMalloc",
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "herald-bench",
            dependencies: ["HeraldCore", "HeraldStore", "HeraldSync", "CZlib"],
            swiftSettings: strict
        ),

        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", "HeraldNewsboat", "CLibXML2"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .target(
            name: "HeraldTestSupport", path: "Tests/HeraldTestSupport", exclude: ["Server"],
            swiftSettings: strict),
        .testTarget(
            name: "HeraldFetchTests",
            dependencies: ["HeraldFetch", "HeraldReload", "HeraldStore", "HeraldCore", "HeraldTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HeraldStoreTests",
            dependencies: [
                "HeraldStore", "HeraldCore", "HeraldConfig", "HeraldUI", "HeraldNewsboat", "HeraldTestSupport", "CSQLite3",
                "CZlib", "CZstd",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HeraldAccountsTests",
            dependencies: ["HeraldAccounts", "HeraldStore", "HeraldFetch", "HeraldCore", "HeraldTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HeraldSyncTests",
            dependencies: ["HeraldSync", "HeraldStore", "HeraldCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HeraldUITests",
            dependencies: ["HeraldUI", "HeraldConfig", "HeraldCore", "HeraldNewsboat"],
            exclude: ["__Snapshots__"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HeraldTerminalTests",
            dependencies: ["HeraldTerminal", "HeraldUI", "HeraldConfig", "CNCursesW"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HeraldEndToEndTests",
            dependencies: ["HeraldTestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
