import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// A path that resamples (zita-njbridge re-times the stream against the far
/// server's clock): the receiver tracks the timing inside a transmission.
@Suite("Cable modem: timing tracked through a resampling path")
struct CableTimingTests {
    static let rate = 48_000.0

    /// `signal` as a path re-timing it plays it: output sample `t` is the
    /// band-limited signal at `position(t)` (a Kaiser-windowed sinc, ±48 taps,
    /// far finer than the receiver's own), for as long as positions stay inside.
    static func retimed(_ signal: [Float], count: Int, position: (Double) -> Double) -> [Float] {
        let half = 40
        let beta = 10.0
        func besselI0(_ x: Double) -> Double {
            var (sum, term) = (1.0, 1.0)
            for k in 1..<40 {
                term *= (x / 2) * (x / 2) / Double(k * k)
                sum += term
            }
            return sum
        }
        // The Kaiser window against edge², tabulated finely (linear between entries).
        let steps = 1 << 14
        let window = (0...steps).map { besselI0(beta * (1 - Double($0) / Double(steps)).squareRoot()) / besselI0(beta) }
        return (0..<count).map { t in
            let u = position(Double(t))
            let whole = Int(u.rounded(.down))
            let sinePhase = sin(Double.pi * (u - Double(whole)))
            var sum = 0.0
            for j in max(0, whole - half + 1)...min(signal.count - 1, max(0, whole + half)) {
                let x = u - Double(j)
                // sin(π x) = ± sin(π · fraction): one sine per output sample.
                let sinc = abs(x) < 1e-12 ? 1 : ((whole - j) % 2 == 0 ? sinePhase : -sinePhase) / (Double.pi * x)
                let edge = x / Double(half)
                guard abs(edge) < 1 else { continue }
                let place = edge * edge * Double(steps)
                let index = Int(place)
                let weight = window[index] + (window[min(steps, index + 1)] - window[index]) * (place - Double(index))
                sum += Double(signal[j]) * sinc * weight
            }
            return Float(sum)
        }
    }

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
        let received = Self.retimed(signal, count: Int(Double(signal.count) * ratio) - 100) { $0 / ratio }
        let receiver = try CableStreamReceiver(sampleRateHz: Self.rate)
        let receptions = CableStreamTests.pushChunked(received, into: receiver, seed: 5) + receiver.finish()
        let reception = try #require(receptions.first)
        #expect(reception.message == message, "\(ppm) ppm: \(reception.summary)")
        // Nothing else found in it (the chirp search never mistakes the data for a chirp).
        #expect(receptions.dropFirst().allSatisfy { $0.message == nil }, "\(receptions.map(\.summary))")
        report(String(format: "cable at %+.0f ppm: %@, mean SNR on the training %.1f dB", ppm, reception.summary,
                      reception.meanSNRdB))
    }
}
