import Foundation

/// ggwave 0.4.3 through its Python binding, installed by `pip install ggwave`
/// into a venv under the benchmark's scratch folder (nothing outside it).
struct GGWave {
    let python: String
    let helper: String
    let folder: String
    /// "ultrasound fastest" (15–19.5 kHz), the variant the issue quotes.
    static let protocolID = 5
    static let sampleRateHz = 48_000.0

    /// nil (with the reason on stderr) when ggwave cannot be had here.
    static func make(helper: String) -> GGWave? {
        let folder = NSTemporaryDirectory() + "modem-bench-ggwave"
        let venv = folder + "/venv"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: venv + "/bin/python") {
            guard shell(["python3", "-m", "venv", venv]) == 0 else { return nil }
        }
        if shell([venv + "/bin/python", "-c", "import ggwave"]) != 0 {
            progress("pip install ggwave (compiles its C++ core; a minute)")
            guard shell([venv + "/bin/pip", "install", "--quiet", "ggwave==0.4.3"]) == 0 else { return nil }
        }
        return GGWave(python: venv + "/bin/python", helper: helper, folder: folder)
    }

    @discardableResult
    static func shell(_ arguments: [String], output: Pipe? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let output { process.standardOutput = output }
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func encode(_ payload: [UInt8]) -> [Float]? {
        let path = folder + "/tx.f32"
        let hex = payload.map { String(format: "%02x", $0) }.joined()
        guard Self.shell([python, helper, "encode", path, hex, String(Self.protocolID)]) == 0,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Decodes every signal in one Python process; returns the number that decoded to exactly `payload`.
    func successes(_ signals: [[Float]], payload: [UInt8]) -> Int {
        let hex = payload.map { String(format: "%02x", $0) }.joined()
        var manifest = ""
        for (index, signal) in signals.enumerated() {
            let path = folder + "/rx-\(index).f32"
            let data = signal.withUnsafeBufferPointer { Data(buffer: $0) }
            _ = FileManager.default.createFile(atPath: path, contents: data)
            manifest += "\(path) \(hex)\n"
        }
        let manifestPath = folder + "/manifest.txt"
        _ = FileManager.default.createFile(atPath: manifestPath, contents: Data(manifest.utf8))
        let pipe = Pipe()
        guard Self.shell([python, helper, "decode", manifestPath], output: pipe) == 0 else { return 0 }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
