// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for Herald's parsers, text code and sync files (`make fuzz`; see Fuzz/run.sh).
///
/// A package of its own, so the normal build never compiles them: it depends on Herald by
/// path and is built with `--sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library`
/// (libFuzzer brings `main`), which instruments HeraldCore too.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let targets = ["xml-feed", "json-feed", "html-text", "subscriptions", "dates", "text-layout"]
/// Targets over the library and sync, which need more of Herald than its core.
let syncTargets = ["sync"]

let package = Package(
    name: "HeraldFuzz",
    dependencies: [.package(name: "Herald", path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "HeraldCore", package: "Herald")],
            swiftSettings: strict)
    ]
        + targets.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: ["FuzzSupport", .product(name: "HeraldCore", package: "Herald")]
                    // newsboat's urls files are HeraldNewsboat's.
                    + (name == "subscriptions" ? [.product(name: "HeraldNewsboat", package: "Herald")] : []),
                swiftSettings: strict)
        }
        + syncTargets.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: [
                    "FuzzSupport", .product(name: "HeraldCore", package: "Herald"),
                    .product(name: "HeraldStore", package: "Herald"), .product(name: "HeraldSync", package: "Herald"),
                ],
                swiftSettings: strict)
        },
    swiftLanguageModes: [.v6]
)
