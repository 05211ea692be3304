// swift-tools-version: 6.1
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer). A package of its own: its
// executables must be built with `-sanitize=fuzzer`, which the main build
// never is. SwiftPM renames an executable's entry point to `<target>_main`,
// so each target defines that and hands over to `LLVMFuzzerRunDriver`. Run them with
// `Fuzz/run` (see README, "Reliability").
let package = Package(
    name: "ToneNodeFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ToneNode", path: "../"),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "fuzz-wav",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "ToneAudioFile", package: "ToneNode"),
                .product(name: "ToneDSP", package: "ToneNode"),
            ]),
        .executableTarget(
            name: "fuzz-modem",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "ToneDSP", package: "ToneNode"), .product(name: "ToneModem", package: "ToneNode"),
            ]),
    ]
)
