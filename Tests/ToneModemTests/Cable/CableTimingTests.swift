import Foundation
import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

/// A path that resamples (zita-njbridge re-times the stream against the far
/// server's clock): the receiver tracks the timing inside a transmission.
@Suite("Cable modem: timing tracked through a resampling path")
struct CableTimingTests {
    static let rate = 48_000.0

    /// One segment's worth of bytes (the file default: about 3 s, 32 frames), 0.3 s of silence before.
    static func transmission(seed: UInt64) throws -> (message: [UInt8], signal: [Float]) {
        let message = CableRoundTripTests.randomBytes(100_000, seed: seed)
        let rendered = try CableModulator(sampleRateHz: rate).render(message: message)
        return (message, [Float](repeating: 0, count: 14_400) + rendered + [Float](repeating: 0, count: 4_800))
    }

    @Test("a constant sample-rate offset of ±100 and ±300 ppm (14–43 samples of slip over the transmission): whole",
          arguments: [-300.0, -100, 100, 300])
    func constantOffset(ppm: Double) throws {
        let (message, signal) = try Self.transmission(seed: 41)
        let ratio = 1 + ppm * 1e-6
        let received = Retiming.retimed(signal, count: Int(Double(signal.count) * ratio) - 100) { $0 / ratio }
        let receiver = try CableStreamReceiver(sampleRateHz: Self.rate)
        let receptions = CableStreamTests.pushChunked(received, into: receiver, seed: 5) + receiver.finish()
        let reception = try #require(receptions.first)
        #expect(reception.message == message, "\(ppm) ppm: \(reception.summary)")
        // Nothing else found in it (the chirp search never mistakes the data for a chirp).
        #expect(receptions.dropFirst().allSatisfy { $0.message == nil }, "\(receptions.map(\.summary))")
        report(String(format: "cable at %+.0f ppm: %@, mean SNR on the training %.1f dB", ppm, reception.summary,
                      reception.meanSNRdB))
    }

    /// The ratio as zita-n2j's DLL steers it between two dummy jackd servers,
    /// from a recording of B's `rx:out_1` against A's input (2026-11-28, a
    /// delay measured every 256 samples): swings of ±7 ppm within 2.5 s, up to
    /// 1 ppm from one frame (88 ms) to the next, a small jitter on top. Here: 20
    /// ppm ± 8 ppm at a 4 s period, plus a seeded jitter of 0.3 ppm a
    /// 256-sample period. Output sample t reads input position `positions[t]`.
    static func wanderingPositions(count: Int, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        var positions = [Double](repeating: 0, count: count)
        var jitter = 0.0
        for t in 1..<count {
            if t % 256 == 0 { jitter = 0.3e-6 * random.gaussian() }
            let rate = 20e-6 + 8e-6 * sin(2 * Double.pi * Double(t) / (4 * rate) + 1) + jitter
            positions[t] = positions[t - 1] + 1 / (1 + rate)
        }
        return positions
    }

    @Test("a ratio that wanders as zita-n2j's does (20 ± 8 ppm at a 4 s period, 0.3 ppm of jitter): whole")
    func wanderingRatio() throws {
        let (message, signal) = try Self.transmission(seed: 43)
        let positions = Self.wanderingPositions(count: signal.count, seed: 7)
        let count = positions.firstIndex { $0 > Double(signal.count - 50) } ?? signal.count
        let received = Retiming.retimed(signal, count: count) { positions[Int($0)] }
        let receiver = try CableStreamReceiver(sampleRateHz: Self.rate)
        let receptions = CableStreamTests.pushChunked(received, into: receiver, seed: 6) + receiver.finish()
        let reception = try #require(receptions.first)
        let whole = reception.message == message
        #expect(whole, "\(reception.summary)")
        // The data as the timing predicted it shows what the wander costs, below the training's SNR: what a
        // session's receiver answers with (`planningSNRdB`).
        let dataDB = reception.dataSNRdB.reduce(0, +) / Double(max(1, reception.dataSNRdB.count))
        #expect(reception.dataSNRdB.count == CablePlan.bandCount && dataDB < reception.meanSNRdB, "\(reception.dataSNRdB)")
        #expect(reception.planningSNRdB == zip(reception.bandSNRdB, reception.dataSNRdB).map { min($0, $1) })
        report(String(format: "cable through a wandering ratio: %@, mean SNR on the training %.1f dB, on the data as "
                      + "predicted %.1f dB", reception.summary, reception.meanSNRdB, dataDB))
    }
}
