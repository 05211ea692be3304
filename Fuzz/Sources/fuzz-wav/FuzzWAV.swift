// libFuzzer target: bytes → a file → libsndfile → the detector, the way
// `tonenode analyze` reads a file. A crash, a leak under ASan, a hang (libFuzzer's
// -timeout) or a NaN/Inf frequency or level is a finding.
import CFuzzerDriver
import Foundation
import ToneAudioFile
import ToneDSP

/// Ends the read early: each input's work is bounded.
private struct Enough: Error {}

private let path = "/dev/shm/tonenode-fuzz-wav-\(getpid())"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
    fwrite(data, 1, size, file)
    fclose(file)
    guard let reader = try? AudioFileReader(path: path) else { return 0 }
    // Small windows keep each input fast; the code paths are the same.
    let configuration = ToneEstimatorConfiguration(sampleRateHz: reader.sampleRateHz, fftSize: 256,
                                                   lowHz: 20, highHz: reader.sampleRateHz / 2)
    guard configuration.problem == nil,
          let estimator = try? ToneEstimator(configuration, planning: .estimate),
          let analyzer = try? ToneAnalyzer(estimator: estimator, hopFrames: 128) else { return 0 }
    var blocks = 0
    try? reader.forEachBlock(channel: reader.channelCount - 1, blockFrames: 1024) { block in
        blocks += 1
        guard blocks <= 64 else { throw Enough() }  // bound the work per input
        analyzer.process(block) { report in
            let reading = report.reading
            for value in [reading.frequencyHz, reading.levelDBFS, reading.snrDB, reading.rmsDBFS] {
                if let value, !value.isFinite { fatalError("non-finite value in \(reading)") }
            }
            if reading.invalidInput, reading.frequencyHz != nil { fatalError("invalid input with a frequency") }
        }
    }
    return 0
}

/// The entry point SwiftPM expects of this executable (see Package.swift).
@_cdecl("fuzz_wav_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        guard let data else { return 0 }
        return fuzzWAV(data, size)
    }
}
