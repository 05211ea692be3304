import Foundation
import Testing
@testable import ToneDSP
@testable import ToneModem
import ToneTestSupport

@Suite("Channel equalizer")
struct ChannelEqualizerTests {
    static let rate = 48_000.0

    /// Seeded white noise limited to 18–20 kHz: a known "sent" signal.
    static func bandNoise(count: Int, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed)
        var signal = (0..<count).map { _ in random.gaussian() }
        ModemModulator.bandLimit(&signal, sampleRateHz: rate, lowHz: 18_000, highHz: 20_000)
        return signal.map { Float($0) }
    }

    @Test("fits a response with a late echo from the known part, and divides it out of the rest")
    func fitAndUndo() throws {
        let equalizer = ChannelEqualizer(sampleRateHz: Self.rate)
        let lead = equalizer.leadFrames
        let sent = Self.bandNoise(count: 12_000, seed: 11)
        // Direct sound 40 samples late (within the lead allowance, fractional timing is
        // the same problem), an echo at 30 ms at −6 dB, one at 70 ms at −12 dB.
        var response = [Float](repeating: 0, count: 3_500)
        response[40] = 1
        response[40 + 1_440] = -0.5
        response[40 + 3_360] = 0.25
        let convolved = ModemChannel.convolve(sent, response)
        // The receiver's view: `lead` samples of silence first, white noise 40 dB down.
        let received = ModemChannel.addNoise([Float](repeating: 0, count: lead) + convolved, signalPower: 0.1,
                                             snrDB: 40, seed: 12)
        let known = Array(sent.prefix(6_000))
        let estimate = try #require(received.withUnsafeBufferPointer {
            equalizer.estimateResponse(sent: known, received: $0.baseAddress!, observedFrames: 6_000, responseFrames: 4_000)
        })
        // Tap lead + d is delay d. Compare in the band (the fit cannot see outside it).
        var truth = [Float](repeating: 0, count: estimate.count)
        for (delay, value) in response.enumerated() where lead + delay < truth.count { truth[lead + delay] = value }
        var bandTruth = truth.map(Double.init), bandEstimate = estimate.map(Double.init)
        ModemModulator.bandLimit(&bandTruth, sampleRateHz: Self.rate, lowHz: 18_000, highHz: 20_000)
        ModemModulator.bandLimit(&bandEstimate, sampleRateHz: Self.rate, lowHz: 18_000, highHz: 20_000)
        let error = zip(bandTruth, bandEstimate).reduce(0.0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        let energy = bandTruth.reduce(0.0) { $0 + $1 * $1 }
        #expect(10 * log10(error / energy) < -15, "response error \(10 * log10(error / energy)) dB")

        // Deconvolving the whole received signal gives back what was sent, also after the known part.
        let clean = try #require(received.withUnsafeBufferPointer {
            equalizer.deconvolve($0.baseAddress!, count: received.count, response: estimate, lowHz: 18_000, highHz: 20_000)
        })
        var residual = 0.0, power = 0.0
        for n in 7_000..<11_000 {
            residual += Double(clean[n] - sent[n]) * Double(clean[n] - sent[n])
            power += Double(sent[n]) * Double(sent[n])
        }
        #expect(10 * log10(residual / power) < -12, "after the known part: \(10 * log10(residual / power)) dB")
        var smeared = 0.0
        for n in 7_000..<11_000 {
            smeared += Double(received[lead + n] - sent[n]) * Double(received[lead + n] - sent[n])
        }
        #expect(smeared > 10 * residual, "the room smeared the signal before")
    }

    @Test("silence gives no response rather than garbage")
    func silence() {
        let equalizer = ChannelEqualizer(sampleRateHz: Self.rate)
        let received = [Float](repeating: 0, count: 8_000)
        let estimate = received.withUnsafeBufferPointer {
            equalizer.estimateResponse(sent: Self.bandNoise(count: 4_000, seed: 3), received: $0.baseAddress!,
                                       observedFrames: 4_000, responseFrames: 2_000)
        }
        #expect(estimate == nil)
    }
}
