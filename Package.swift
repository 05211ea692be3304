// swift-tools-version: 6.1
import PackageDescription

/// Each module's README.md (what the folder holds) is for people, not the build.
let readme = ["README.md"]

let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))]

let package = Package(
    name: "ToneNode",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tonenode", targets: ["tonenode"]),
        .library(name: "ToneDSP", targets: ["ToneDSP"]),
        .library(name: "ToneModem", targets: ["ToneModem"]),
        .library(name: "ToneAudioFile", targets: ["ToneAudioFile"]),
        .library(name: "ToneCore", targets: ["ToneCore"]),
        .library(name: "ToneJack", targets: ["ToneJack"]),
        .library(name: "ToneEngine", targets: ["ToneEngine"]),
        .library(name: "ToneCommandLine", targets: ["ToneCommandLine"]),
        .library(name: "ToneFileCommands", targets: ["ToneFileCommands"]),
        // Seeded noise and channel models shared by the unit tests and the benchmarks.
        .library(name: "ToneTestSupport", targets: ["ToneTestSupport"]),
        // The charts (SVG), for the benchmarks' plots.
        .library(name: "TonePlot", targets: ["TonePlot"]),
        // The LV2 bundle's binary (the analyzer and generator plugins; Sources/ToneLV2/bundle).
        .library(name: "ToneNodeLV2", type: .dynamic, targets: ["ToneLV2"]),
        // The plugins' faces (LV2 X11 UIs, the same bundle): a library of their own, so the
        // plugins' library loads in hosts without X11.
        .library(name: "ToneNodeLV2UI", type: .dynamic, targets: ["ToneLV2UI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The live page (`--web`): an HTTP server and its WebSocket, ToneWeb's only dependencies.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // One C module per system library; exactly one Swift module imports each.
        // CJack and CFFTW carry C of ours (CJack: shim.h and files named for what
        // they do), so they are C targets, not system libraries: only then does a
        // change to one of their headers rebuild the Swift that imports it (see
        // Sources/CJack/shim.c). Their libraries are Debian's libjack-jackd2-dev
        // and libfftw3-dev (scripts/install-deps).
        .target(name: "CJack", publicHeadersPath: ".",
                linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("pthread")]),
        .target(name: "CFFTW", publicHeadersPath: ".",
                linkerSettings: [.linkedLibrary("fftw3f"), .linkedLibrary("fftw3")]),
        .systemLibrary(
            name: "CLiblo", pkgConfig: "liblo",
            providers: [.apt(["liblo-dev"])]),
        .systemLibrary(
            name: "CSndfile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]),
        // SHA-256 of a cable session's file (`tonenode`'s `SHA256`); not swift-crypto, whose BoringSSL build is long.
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),

        // The signal processing and the tests' signal models are optimized in
        // debug builds too: the unit suites (mostly these loops) and the debug
        // `tonenode` the end-to-end tests run take a fraction of the CPU
        // (docs/engineering/tests.md). Debug checks stay: `-assert-config Debug` keeps
        // `assert` and the standard library's debug preconditions (unsafe
        // buffer indices) that -O alone drops.
        .target(name: "ToneDSP", dependencies: ["CFFTW"], exclude: readme, swiftSettings: optimizedInDebug),
        // The modem (air and cable) and the cable session's protocol, on ToneDSP.
        .target(name: "ToneModem", dependencies: ["ToneDSP"], exclude: readme, swiftSettings: optimizedInDebug),
        .target(name: "ToneTestSupport", dependencies: ["ToneDSP", "ToneModem"], exclude: readme, swiftSettings: optimizedInDebug),
        .target(name: "ToneAudioFile", dependencies: ["CSndfile"], exclude: readme),
        // JACK-free rules: settings and their validation, the control language,
        // the session encoding, qjackctl patchbay files.
        .target(name: "ToneCore", dependencies: ["ToneDSP", "ToneModem"], exclude: readme),
        // The JACK binding: the only importer of CJack.
        .target(name: "ToneJack", dependencies: ["CJack"], exclude: readme),
        // The running node: real-time engines, analysis worker, supervisor, recorder.
        .target(name: "ToneEngine", dependencies: ["ToneDSP", "ToneModem", "ToneCore", "ToneJack"], exclude: readme),
        // SVG charts (spectrum, spectrogram, frequency response); no dependencies.
        .target(name: "TonePlot", exclude: readme),
        .target(name: "ToneOSC", dependencies: ["CLiblo", "ToneCore"], exclude: readme),
        // The live page (`--web`): the HTTP/WebSocket server, its embedded page, each tab's
        // bounded queue, the access checks. JACK-free: it is handed lines and a control door.
        .target(name: "ToneWeb", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            // Only to keep the server's own log off stdout (the reports' stream).
            .product(name: "Logging", package: "swift-log"),
            // Its own one-thread event loop, reniced like the worker.
            .product(name: "NIOPosix", package: "swift-nio"),
        ], exclude: readme),
        // LV2 (Debian lv2-dev): the C descriptor table over ToneLV2's `@_cdecl` entry points.
        .target(name: "CLV2", publicHeadersPath: "."),
        // -z nodelete: a host's dlclose leaves it loaded (the Swift runtime cannot be
        // unloaded; each load and unload lost its caches, 120 KB a cycle under ASan).
        .target(name: "ToneLV2", dependencies: ["CLV2", "ToneDSP"], exclude: ["bundle"] + readme, swiftSettings: optimizedInDebug,
                linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"])]),
        // The LV2 UIs in C over cairo and Xlib (Debian libcairo2-dev, libx11-dev); only
        // `lv2ui_descriptor` is visible (LV2_SYMBOL_EXPORT), the rest hidden.
        .target(name: "ToneLV2UI", exclude: readme,
                cSettings: [.unsafeFlags(["-fvisibility=hidden"])],
                linkerSettings: [.linkedLibrary("cairo"), .linkedLibrary("X11"), .linkedLibrary("m")]),
        // The command line's option groups and output formatters (reports, messages,
        // JSON lines, plots, the console), JACK-free: no ToneJack, no ToneEngine.
        .target(name: "ToneCommandLine", dependencies: [
            "ToneCore", "ToneDSP", "ToneModem", "ToneAudioFile", "TonePlot",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The offline commands (analyze, encode, decode): files in, files or lines out.
        // No ToneJack, no ToneEngine among its dependencies, so the build refuses an import of them.
        .target(name: "ToneFileCommands", dependencies: [
            "ToneCommandLine", "ToneCore", "ToneDSP", "ToneModem", "ToneAudioFile", "TonePlot",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(
            name: "tonenode",
            dependencies: [
                "ToneDSP", "ToneModem", "ToneAudioFile", "ToneCore", "ToneCommandLine", "ToneFileCommands", "ToneJack",
                "ToneEngine", "TonePlot", "ToneOSC", "ToneWeb", "CCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: readme),

        // Unit tests, one target per module; none needs a JACK server.
        .testTarget(name: "ToneDSPTests", dependencies: ["ToneDSP", "ToneTestSupport"]),
        .testTarget(name: "ToneModemTests", dependencies: ["ToneModem", "ToneDSP", "ToneTestSupport"]),
        .testTarget(name: "ToneCoreTests", dependencies: ["ToneCore", "ToneDSP", "ToneModem"]),
        .testTarget(name: "ToneAudioFileTests", dependencies: ["ToneAudioFile", "CSndfile"]),
        .testTarget(name: "ToneJackTests", dependencies: ["ToneJack", "ToneTestSupport"]),
        .testTarget(name: "ToneEngineTests", dependencies: ["ToneEngine", "ToneCore", "ToneDSP", "ToneModem", "ToneJack",
                                                     "ToneTestSupport"]),
        .testTarget(name: "ToneOSCTests", dependencies: ["ToneOSC", "ToneCore", "ToneTestSupport"]),
        .testTarget(name: "TonePlotTests", dependencies: ["TonePlot"]),
        .testTarget(name: "ToneWebTests", dependencies: ["ToneWeb", "ToneCommandLine"]),
        .testTarget(name: "tonenodeTests", dependencies: ["tonenode", "ToneCommandLine", "ToneFileCommands", "ToneDSP",
                                                   "ToneModem", "ToneOSC", "ToneAudioFile", "ToneJack", "ToneCore",
                                                   "ToneTestSupport"]),
        // What the end-to-end tests share: the one process runner (LiveCommand,
        // runCommand), the one configurable JACK test peer (JackPeer and its
        // behaviours), private servers. Test code may import CJack; the
        // product's only importer of CJack is ToneJack.
        .target(name: "EndToEndSupport", dependencies: ["CJack", "ToneCore", "ToneJack", "ToneTestSupport"], path: "Tests/EndToEndSupport",
                swiftSettings: optimizedInDebug),
        // End to end: the tonenode binary and the node against real jackd servers.
        .testTarget(
            name: "EndToEndTests",
            // tonenode: not imported; listed so the binary the tests run is built first.
            dependencies: ["EndToEndSupport", "ToneDSP", "ToneModem", "ToneAudioFile", "ToneCore", "ToneJack", "ToneEngine",
                           "ToneOSC", "ToneTestSupport", "tonenode"],
            exclude: ["LV2/lv2host.c", "LV2/lv2read.c", "LV2/Face/xface.c", "PipeWire/latency_peer.c",
                      "Web/web_browser.py", "Web/web_sockets.py"]),
    ]
)
