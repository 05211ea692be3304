// libFuzzer target: bytes → samples → the streaming modem receiver, the way
// `tonenode decode` and the live worker feed it. Byte 0 picks the sample rate
// and the chunk size, byte 1 where a gap (dropped input) goes; the rest are
// 16-bit little-endian samples. A crash, a hang, a leak, a non-finite SNR or
// time, or a delivered message longer than a message can be is a finding.
//
// With FUZZ_MODEM_SEEDS=DIR set, writes seed inputs (real transmissions) to
// DIR and exits.
import CFuzzerDriver
import Foundation
import ToneDSP
import ToneModem

private let rates: [Double] = [16_000, 44_100, 48_000, 96_000]
private let chunks = [1, 32, 256, 1000, 4096, 8192, 97, 2048]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModem(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let rate = rates[Int(data[0] & 3)]
    let chunk = chunks[Int((data[0] >> 2) & 7)]
    let sampleCount = (size - 2) / 2
    var samples = [Float](repeating: 0, count: sampleCount)
    for index in 0..<sampleCount {
        let raw = UInt16(data[2 + 2 * index]) | UInt16(data[3 + 2 * index]) << 8
        samples[index] = Float(Int16(bitPattern: raw)) / 32768
    }
    let profile = ModemProfile.allCases[Int(data[0] >> 5) % ModemProfile.allCases.count]
    guard let receiver = try? ModemReceiver(sampleRateHz: rate, profiles: [profile]) else { return 0 }
    let gapAt = data[1] == 0 ? -1 : sampleCount * Int(data[1]) / 256
    var events: [ModemEvent] = []
    var offset = 0
    while offset < sampleCount {
        let end = min(sampleCount, offset + chunk)
        if gapAt >= offset, gapAt < end { receiver.skip(frames: Int(data[1]) * 7) }
        events += samples[offset..<end].withUnsafeBufferPointer { receiver.push($0) }
        offset = end
    }
    events += receiver.finish()
    for event in events {
        switch event {
        case .message(let message):
            if !message.timeSeconds.isFinite || !message.snrDB.isFinite { fatalError("non-finite field in \(message)") }
            if message.bytes.count > ModemFrame.maximumMessageBytes { fatalError("message too long") }
        case .incomplete(let message):
            if message.receivedFrames >= message.frameCount { fatalError("incomplete with every frame: \(message)") }
        case .cable(let reception, let timeSeconds):
            // This receiver listens for the tone profiles only: a cable reception is a bug.
            fatalError("a cable reception at \(timeSeconds) s from a tone-profile receiver: \(reception)")
        }
    }
    return 0
}

private func writeSeeds(to folder: String) {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let seeds: [(ModemProfile, Int, String)] = [(.audibleFast, 0, "hi"), (.audible, 0, "seed message"),
                                                 (.ultrasonicFast, 2, "ultra"), (.audibleFast, 0, String(repeating: "x", count: 40))]
    for (index, seed) in seeds.enumerated() {
        guard let modulator = try? ModemModulator(profile: seed.0, sampleRateHz: rates[seed.1]),
              let samples = try? modulator.render(message: Array(seed.2.utf8), messageID: UInt16(index)) else { continue }
        let profileIndex = ModemProfile.allCases.firstIndex(of: seed.0) ?? 0
        var bytes: [UInt8] = [UInt8(seed.1) | UInt8(index % 8) << 2 | UInt8(profileIndex) << 5, 0]
        for sample in samples {
            let value = UInt16(bitPattern: Int16(max(-32768, min(32767, (sample * 32768).rounded()))))
            bytes += [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        _ = FileManager.default.createFile(atPath: folder + "/modem-\(index).raw", contents: Data(bytes))
    }
}

/// The entry point SwiftPM expects of this executable (see Package.swift).
@_cdecl("fuzz_modem_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if let folder = ProcessInfo.processInfo.environment["FUZZ_MODEM_SEEDS"] {
        writeSeeds(to: folder)
        return 0
    }
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        guard let data else { return 0 }
        return fuzzModem(data, size)
    }
}
