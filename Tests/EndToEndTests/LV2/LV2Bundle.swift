import EndToEndSupport
import Foundation
import Testing
import ToneAudioFile
import ToneTestSupport

/// The built LV2 bundle, staged the way `scripts/install` lays it out
/// (`DIR/tonenode.lv2/{manifest.ttl,tonenode.ttl,ui.ttl,libToneNodeLV2.so,libToneNodeLV2UI.so}`) in a
/// directory of its own that the tests give hosts as `LV2_PATH`, and the
/// tests' lilv host (`lv2host.c`), compiled once.
enum LV2Bundle {
    static let analyzer = "urn:tonenode:lv2:analyzer"
    static let generator = "urn:tonenode:lv2:generator"

    /// The package's root (this file is Tests/EndToEndTests/LV2/LV2Bundle.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The staged bundle's parent directory (the `LV2_PATH`), or why there is none.
    static let staged: Result<String, LV2BundleError> = {
        let library = productsDirectory.appendingPathComponent("libToneNodeLV2.so").path
        guard FileManager.default.fileExists(atPath: library) else {
            return .failure(LV2BundleError("\(library) is not built (swift build --build-tests builds it)"))
        }
        let root = NSTemporaryDirectory() + "tn-lv2-\(getpid())"
        let bundle = root + "/tonenode.lv2"
        do {
            try? FileManager.default.removeItem(atPath: root)
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            for file in ["manifest.ttl", "tonenode.ttl", "ui.ttl"] {
                try FileManager.default.copyItem(atPath: packageRoot + "/Sources/ToneLV2/bundle/" + file,
                                                 toPath: bundle + "/" + file)
            }
            try FileManager.default.copyItem(atPath: library, toPath: bundle + "/libToneNodeLV2.so")
            // The faces' library (LV2FaceTests), when built: hosts without a UI never load it.
            let faces = productsDirectory.appendingPathComponent("libToneNodeLV2UI.so").path
            if FileManager.default.fileExists(atPath: faces) {
                try FileManager.default.copyItem(atPath: faces, toPath: bundle + "/libToneNodeLV2UI.so")
            }
        } catch {
            return .failure(LV2BundleError("staging the bundle: \(error)"))
        }
        return .success(root)
    }()

    /// Whether the library is built with AddressSanitizer (scripts/sanitize):
    /// only a host with ASan's runtime can load it.
    static let isSanitized: Bool = {
        let library = productsDirectory.appendingPathComponent("libToneNodeLV2.so").path
        let check = try? runCommand(["-c", "nm -D '\(library)' | grep -q ' U __asan_init'"], executable: "/bin/sh",
                                    timeoutSeconds: 30)
        return check?.status == 0
    }()

    /// `lv2host`, compiled against lilv and libsndfile, or why it could not be.
    static let host = compile("lv2host")

    /// `lv2read` (the offline host with urid:map and the worker, for x42 tuna beside ToneNode).
    static let reader = compile("lv2read")

    /// `NAME.c` of this folder compiled against lilv and libsndfile, or why it
    /// could not be. For a sanitized library, by the Swift toolchain's clang with its ASan runtime.
    private static func compile(_ name: String) -> Result<String, LV2BundleError> {
        let output = NSTemporaryDirectory() + "tn-\(name)-\(getpid())"
        let compiler = isSanitized ? "\"$(dirname \"$(readlink -f \"$(command -v swift)\")\")/clang\" -fsanitize=address" : "cc"
        let script = "\(compiler) -O1 -g -Wall -Wextra -Werror -o '\(output)' '\(packageRoot)/Tests/EndToEndTests/LV2/\(name).c' "
            + "$(pkg-config --cflags --libs lilv-0 sndfile) -lm"
        guard let built = try? runCommand(["-c", script], executable: "/bin/sh", timeoutSeconds: 60),
              built.status == 0 else {
            return .failure(LV2BundleError("\(name).c did not compile (liblilv-dev installed?)"))
        }
        return .success(output)
    }

    /// x42 tuna (Debian x42-plugins), what LV2TunaTests hold the analyzer against.
    static let tuna = "http://gareus.org/oss/lv2/tuna#one"

    /// Why LV2TunaTests cannot run here (no `lv2read`, no x42 tuna), or nil.
    static var tunaMissing: String? {
        if case .failure(let error) = reader { return error.description }
        return FileManager.default.fileExists(atPath: "/usr/lib/lv2/tuna.lv2/manifest.ttl") ? nil : "x42-plugins is not installed"
    }

    /// Why the bundle tests cannot run here, or nil.
    static var missing: String? {
        if case .failure(let error) = staged { return error.description }
        if case .failure(let error) = host { return error.description }
        return nil
    }

    /// `lv2host URI FILE ARGUMENTS…` on the staged bundle.
    static func runHost(_ uri: String, _ file: String, _ arguments: [String]) throws -> CommandResult {
        try runCommand([uri, file] + arguments, executable: host.get(), environment: ["LV2_PATH": staged.get()],
                       timeoutSeconds: 60)
    }

    /// A WAV of `seconds` of a `frequencyHz` sine at `amplitude` plus seeded
    /// uniform noise of peak `noise`, with `modify` applied to the samples last.
    static func toneFile(rate: Int, frequencyHz: Double, amplitude: Double = 0.25, noise: Double = 0.01,
                         seconds: Double = 2, seed: UInt64 = 1, modify: (inout [Float]) -> Void = { _ in }) throws -> String {
        var random = SplitMix64(seed: seed)
        var samples = (0..<Int(seconds * Double(rate))).map { index -> Float in
            let tone = amplitude * sin(2 * Double.pi * frequencyHz * Double(index) / Double(rate))
            return Float(tone + noise * Double.random(in: -1...1, using: &random))
        }
        modify(&samples)
        let path = NSTemporaryDirectory() + "tn-lv2-\(UUID().uuidString).wav"
        try AudioFileWriter.writeWAV(path: path, samples: samples, sampleRateHz: rate)
        return path
    }
}

struct LV2BundleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One line of `lv2host`: the reading shown after `frames` frames.
struct HostReading {
    let frames: Int
    let frequencyHz, levelDBFS, snrDB, note, cents, sigmaHz, sigmaCents: Double
    let valid: Bool

    init?(_ line: String) {
        let fields = line.split(separator: " ").compactMap { Double($0) }
        guard fields.count == 9 else { return nil }
        frames = Int(fields[0])
        (frequencyHz, levelDBFS, snrDB, note, cents) = (fields[1], fields[2], fields[3], fields[4], fields[5])
        (sigmaHz, sigmaCents, valid) = (fields[6], fields[7], fields[8] == 1)
    }
}
