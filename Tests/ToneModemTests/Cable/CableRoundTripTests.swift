import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Cable modem: round trips")
struct CableRoundTripTests {
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test("48 KiB over an ideal float path at 44.1, 48 and 96 kHz, the file default (65536-QAM, rate 8/9)", arguments: [44_100.0, 48_000, 96_000])
    func ideal(rate: Double) throws {
        let message = Self.randomBytes(48 * 1024, seed: 1)
        let modulator = try CableModulator(sampleRateHz: rate)
        let signal = [Float](repeating: 0, count: 777) + (try modulator.render(message: message))
        let reception = try #require(try CableDemodulator(sampleRateHz: rate).receive(signal))
        #expect(reception.message == message, "\(reception.summary)")
        #expect(reception.startSample == 777)
        let seconds = try modulator.seconds(messageBytes: message.count)
        report(String(format: "cable default plan at %.1f kHz: 48 KiB in %.3f s, %.1f kbit/s net", rate / 1000, seconds,
                      Double(8 * message.count) / seconds / 1000))
    }

    @Test("a gain of −9 dB, a short EQ filter and a 5-sample delay are equalized")
    func gainEQDelay() throws {
        let rate = 48_000.0
        let message = Self.randomBytes(5_000, seed: 2)
        let sent = try CableModulator(sampleRateHz: rate).render(message: message)
        // A peaking-ish 5-tap FIR, the gain folded in, then 5 samples of delay.
        let taps: [Float] = [0.12, -0.3, 1.0, 0.25, -0.08].map { $0 * 0.355 }
        var received = [Float](repeating: 0, count: sent.count + 5 + taps.count)
        for (index, value) in sent.enumerated() {
            for (tap, weight) in taps.enumerated() { received[index + 5 + tap] += weight * value }
        }
        let reception = try #require(try CableDemodulator(sampleRateHz: rate).receive(received))
        #expect(reception.message == message, "\(reception.summary)")
    }
}
