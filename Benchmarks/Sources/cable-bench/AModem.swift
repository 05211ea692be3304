import Foundation

/// amodem (PyPI) in a venv under the benchmark's scratch folder: `pip install
/// amodem 'numpy<2'` (amodem 1.16 calls numpy's `tostring`, gone in numpy 2).
/// Its audio is raw 16-bit mono at the bit rate's own sample rate (32 kHz for 28–80 kbit/s).
struct AModem {
    let executable: String
    let folder: String
    /// amodem's bit-rate settings (kbit/s) and their sample rates, fastest first.
    static let settings: [(kbps: Int, sampleRateHz: Double)] = [
        (80, 32_000), (72, 32_000), (64, 32_000), (54, 32_000), (48, 32_000), (36, 32_000), (28, 32_000),
        (20, 16_000), (12, 16_000), (8, 8_000), (4, 8_000), (2, 8_000), (1, 8_000),
    ]

    /// nil (with the reason on stderr) when amodem cannot be had here.
    static func make() -> AModem? {
        let folder = NSTemporaryDirectory() + "cable-bench-amodem"
        let venv = folder + "/venv"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: venv + "/bin/python") {
            guard shell(["python3", "-m", "venv", venv]) == 0 else { return nil }
        }
        if shell([venv + "/bin/python", "-c", "import amodem"]) != 0 {
            progress("pip install amodem 'numpy<2'")
            guard shell([venv + "/bin/pip", "install", "--quiet", "amodem", "numpy<2"]) == 0 else { return nil }
        }
        return AModem(executable: venv + "/bin/amodem", folder: folder)
    }

    var version: String {
        let pipe = Pipe()
        Self.shell([(executable as NSString).deletingLastPathComponent + "/python", "-c",
                    "import importlib.metadata as m; print(m.version('amodem'))"], output: pipe)
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    static func shell(_ arguments: [String], environment: [String: String] = [:], output: Pipe? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let output { process.standardOutput = output }
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// amodem's audio for `payload` at `kbps`, as floats (full scale 1).
    func send(_ payload: [UInt8], kbps: Int) -> [Float]? {
        let input = folder + "/tx.bin"
        let audio = folder + "/tx.raw"
        _ = FileManager.default.createFile(atPath: input, contents: Data(payload))
        guard Self.shell([executable, "send", "-q", "-i", input, "-o", audio], environment: ["BITRATE": String(kbps)]) == 0,
              let data = FileManager.default.contents(atPath: audio) else { return nil }
        return data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
    }

    /// Whether amodem decodes `audio` (written as 16-bit, clipped) to exactly `payload`.
    func receives(_ audio: [Float], kbps: Int, payload: [UInt8]) -> Bool {
        let path = folder + "/rx.raw"
        let output = folder + "/rx.bin"
        try? FileManager.default.removeItem(atPath: output)
        let samples = audio.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        _ = FileManager.default.createFile(atPath: path, contents: samples.withUnsafeBufferPointer { Data(buffer: $0) })
        guard Self.shell([executable, "recv", "-q", "-i", path, "-o", output], environment: ["BITRATE": String(kbps)]) == 0 else {
            return false
        }
        return FileManager.default.contents(atPath: output).map(Array.init) == payload
    }
}
