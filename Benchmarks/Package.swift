// swift-tools-version: 6.1
import PackageDescription

// A package of its own so that benchmarking never slows down or changes the
// main build; it sees ToneNode only through its public products (`ToneDSP`, `ToneModem`, …).
let package = Package(
    name: "ToneNodeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // SwiftPM names a path dependency after its folder, which differs
        // between clones ("main", "tonenode", …); `name:` gives the targets
        // below one stable name to refer to.
        .package(name: "ToneNode", path: "../"),
    ],
    targets: [
        // What the benchmarks share: the machine line of every report.
        .target(name: "BenchSupport"),
        .executableTarget(
            name: "tonenode-bench",
            dependencies: ["BenchSupport", .product(name: "ToneDSP", package: "ToneNode"),
                           .product(name: "ToneTestSupport", package: "ToneNode")]),
        // `tonenode analyze --mode pitch` against aubiopitch on the same files.
        .executableTarget(
            name: "pitch-bench",
            dependencies: ["BenchSupport", .product(name: "ToneDSP", package: "ToneNode"),
                           .product(name: "ToneAudioFile", package: "ToneNode"),
                           .product(name: "ToneTestSupport", package: "ToneNode")]),
        .executableTarget(
            name: "modem-bench",
            dependencies: [.product(name: "ToneDSP", package: "ToneNode"), .product(name: "ToneModem", package: "ToneNode"),
                           .product(name: "ToneTestSupport", package: "ToneNode")]),
        // Rate against SNR for every profile, amodem beside it, Shannon's curve; a table and a plot.
        .executableTarget(
            name: "cable-bench",
            dependencies: [.product(name: "ToneDSP", package: "ToneNode"), .product(name: "ToneModem", package: "ToneNode"),
                           .product(name: "ToneTestSupport", package: "ToneNode"),
                           .product(name: "TonePlot", package: "ToneNode")]),
    ]
)
