import Foundation
import Testing
import ToneDSP
import ToneModem

@Suite("Modem spectrum")
struct ModemSpectrumTests {
    /// Energy inside [lowHz, highHz] and outside it, from one FFT of the whole transmission.
    static func bandEnergies(_ signal: [Float], sampleRateHz: Double, lowHz: Double, highHz: Double) -> (inside: Double, outside: Double) {
        var size = 1024
        while size < 2 * signal.count { size *= 2 }
        guard let fft = ComplexFFT(size: size, inverse: false) else { return (0, 0) }
        for (n, value) in signal.enumerated() { fft.buffer[2 * n] = value }
        fft.execute()
        var inside = 0.0, outside = 0.0
        for k in 0...(size / 2) {
            let power = Double(fft.buffer[2 * k]) * Double(fft.buffer[2 * k]) + Double(fft.buffer[2 * k + 1]) * Double(fft.buffer[2 * k + 1])
            let frequencyHz = Double(k) * sampleRateHz / Double(size)
            if frequencyHz >= lowHz && frequencyHz <= highHz { inside += power } else { outside += power }
        }
        return (inside, outside)
    }

    @Test("ultrasonic profiles keep everything within 18–20 kHz (≥ 60 dB down outside)",
          arguments: [ModemProfile.ultrasonic, .ultrasonicFast], [44_100.0, 48_000, 96_000])
    func ultrasonicContainment(profile: ModemProfile, sampleRateHz: Double) throws {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: sampleRateHz)
        let signal = try modulator.render(message: Array("containment".utf8), messageID: 3)
        let energies = Self.bandEnergies(signal, sampleRateHz: sampleRateHz, lowHz: 18_000, highHz: 20_000)
        let ratioDB = 10 * log10(energies.outside / energies.inside)
        #expect(ratioDB < -60, "outside/inside \(ratioDB) dB")
        #expect(abs((signal.map { abs($0) }.max() ?? 0) - 0.5) < 1e-3, "peak level 0.5")
        #expect(abs(signal.first ?? 1) < 1e-3 && abs(signal.last ?? 1) < 1e-3, "starts and ends in silence")
    }

    @Test("audible profiles stay below 6 kHz", arguments: [ModemProfile.audible, .audibleFast])
    func audibleContainment(profile: ModemProfile) throws {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: 48_000)
        let signal = try modulator.render(message: Array("audible".utf8), messageID: 3)
        let energies = Self.bandEnergies(signal, sampleRateHz: 48_000, lowHz: 900, highHz: 5_100)
        #expect(10 * log10(energies.outside / energies.inside) < -60)
    }

    @Test("airtime and rate of a 32-byte message meet the profile goals")
    func airtime() throws {
        let ultrasonic = try ModemModulator(profile: .ultrasonic, sampleRateHz: 48_000).airtimeSeconds(messageBytes: 32)
        #expect(ultrasonic <= 0.8 && 32 / ultrasonic >= 40)
        for profile in [ModemProfile.ultrasonicFast, .audibleFast] {
            let seconds = try ModemModulator(profile: profile, sampleRateHz: 48_000).airtimeSeconds(messageBytes: 32)
            #expect(32 / seconds >= 100, "\(profile): \(32 / seconds) B/s")
        }
    }
}
