import Foundation
import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Cable modem: white noise, the adaptive plan, damage")
struct CableNoiseTests {
    static let rate = 48_000.0

    /// `signal` plus white Gaussian noise whose power between 200 Hz and 20 kHz
    /// is `snrDB` below the OFDM symbols' (chirp, gap and tail not counted).
    static func noisy(_ signal: [Float], snrDB: Double, seed: UInt64) -> [Float] {
        let geometry = CableGeometry(sampleRateHz: rate)!
        let symbols = signal[geometry.symbolStart(0)..<(signal.count - geometry.fftSize / 4)]
        let power = symbols.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, symbols.count))
        let inBand = (CableGeometry.highHz - CableGeometry.lowHz) / (rate / 2)
        let sigma = (power / pow(10, snrDB / 10) / inBand).squareRoot()
        var random = SeededRandom(seed: seed)
        return signal.map { $0 + Float(sigma * random.gaussian()) }
    }

    /// Probe (the training symbols of a short transmission), plan from its
    /// per-band SNR, then the message under that plan through fresh noise. The
    /// streaming rate must reach half the band's Shannon capacity at the
    /// channel's SNR (B log₂(1 + SNR), B = 200 Hz…20 kHz).
    @Test("probe, plan, send: at least half of Shannon's capacity of the band",
          arguments: [10.0, 20, 40, 90])
    func adaptive(snrDB: Double) throws {
        let demodulator = try CableDemodulator(sampleRateHz: Self.rate)
        let probe = try CableModulator(sampleRateHz: Self.rate).render(message: [1])
        let measured = try #require(demodulator.receive(Self.noisy(probe, snrDB: snrDB, seed: 7)))
        let plan = CablePlan(bandSNRdB: measured.bandSNRdB)
        let modulator = try CableModulator(sampleRateHz: Self.rate, plan: plan)
        let message = CableRoundTripTests.randomBytes(snrDB < 30 ? 2_000 : 12_000, seed: 3)
        let signal = try modulator.render(message: message)
        let reception = try #require(demodulator.receive(Self.noisy(signal, snrDB: snrDB, seed: 8)))
        #expect(reception.message == message, "\(reception.summary)")
        let seconds = try modulator.seconds(messageBytes: message.count)
        // The rate of a long message: frames only (chirp, training and header amortized).
        let frameSeconds = Double(CablePlan.symbolsPerFrame * modulator.geometry.symbolSamples) / Self.rate
        let steadyKbps = Double(8 * (try modulator.payloadBytesPerFrame())) / frameSeconds / 1000
        let shannonKbps = (CableGeometry.highHz - CableGeometry.lowHz) * log2(1 + pow(10, snrDB / 10)) / 1000
        #expect(steadyKbps >= shannonKbps / 2)
        report(String(format: "cable at %.0f dB SNR: plan %@ rate %.3f, %.1f kbit/s streaming (%.1f for these %d B in %.3f s), "
                          + "Shannon %.1f kbit/s (%.0f %%), measured band SNR %.1f…%.1f dB",
                      snrDB, plan.bandBits.map(String.init).joined(separator: ","), plan.codeRate.value, steadyKbps,
                      Double(8 * message.count) / seconds / 1000, message.count, seconds, shannonKbps, 100 * steadyKbps / shannonKbps,
                      measured.bandSNRdB.min() ?? 0, measured.bandSNRdB.max() ?? 0))
    }

    @Test("a truncated recording delivers nothing and counts the frames cut off")
    func truncated() throws {
        let message = CableRoundTripTests.randomBytes(20_000, seed: 4)
        let signal = try CableModulator(sampleRateHz: Self.rate).render(message: message)
        let reception = try #require(try CableDemodulator(sampleRateHz: Self.rate).receive(Array(signal[0..<(signal.count * 2 / 3)])))
        #expect(reception.message == nil)
        #expect(reception.truncatedFrames > 0 && reception.damagedFrames == 0)
        #expect(reception.summary.contains("cut off by the end of the recording"))
    }

    @Test("a burst of noise on one frame: that frame fails its CRC, nothing is delivered, it is counted")
    func corruptedFrame() throws {
        let message = CableRoundTripTests.randomBytes(20_000, seed: 5)
        let modulator = try CableModulator(sampleRateHz: Self.rate)
        var signal = try modulator.render(message: message)
        let start = modulator.geometry.symbolStart(CableGeometry.firstDataSymbol + 2 * CablePlan.symbolsPerFrame) + 100
        var random = SeededRandom(seed: 6)
        for index in start..<(start + 500) { signal[index] += Float(0.2 * random.gaussian()) }
        let reception = try #require(try CableDemodulator(sampleRateHz: Self.rate).receive(signal))
        #expect(reception.message == nil)
        #expect(reception.damagedFrames == 1 && reception.truncatedFrames == 0, "\(reception.summary)")
        #expect(reception.summary.contains("1 damaged"))
    }

    @Test("silence and noise hold no transmission")
    func nothingThere() throws {
        let demodulator = try CableDemodulator(sampleRateHz: Self.rate)
        #expect(demodulator.receive([Float](repeating: 0, count: 48_000)) == nil)
        #expect(demodulator.receive(Self.noisy([Float](repeating: 0.1, count: 48_000), snrDB: 0, seed: 9)) == nil)
    }
}
