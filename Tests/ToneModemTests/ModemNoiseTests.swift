import Foundation
import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

/// Seeded channel trials. Each test states a success rate over enough trials
/// to mean something while staying a few seconds in a debug build; the full
/// sweeps (100+ trials per cell) are in `modem-bench`.
@Suite("Modem through noisy, reverberant and drifting channels")
struct ModemNoiseTests {
    /// Successful trials: the one message sent is delivered exactly, nothing else.
    static func successes(profile: ModemProfile, sampleRateHz: Double = 48_000, trials: Int, seedBase: UInt64,
                          channel: ([Float], Double, UInt64) -> [Float]) throws -> Int {
        try outcomes(profile: profile, sampleRateHz: sampleRateHz, trials: trials, seedBase: seedBase,
                     channel: channel).successes
    }

    /// What the trials delivered: `successes` as above, and `falseDeliveries`,
    /// every message delivered that is not the exact message sent (a garbled
    /// copy, a second copy, a message out of noise), counted across trials.
    static func outcomes(profile: ModemProfile, sampleRateHz: Double = 48_000, trials: Int, seedBase: UInt64,
                         channel: ([Float], Double, UInt64) -> [Float]) throws -> (successes: Int, falseDeliveries: Int) {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: sampleRateHz)
        let airtimeFrames = Int(modulator.airtimeSeconds(messageBytes: 32) * sampleRateHz)
        var count = 0, falseDeliveries = 0
        for trial in 0..<trials {
            let seed = seedBase &+ UInt64(trial)
            let message = ModemChannel.randomMessage(seed: seed)
            let sent = try modulator.render(message: message, messageID: UInt16(trial))
            let lead = [Float](repeating: 0, count: Int(seed % 5000) + 100)
            let signal = lead + sent + [Float](repeating: 0, count: 2000)
            let power = ModemChannel.meanPower(sent, airtimeFrames: airtimeFrames)
            let received = channel(signal, power, seed)
            let messages = ModemChannel.messages(try ModemChannel.receive(received, sampleRateHz: sampleRateHz,
                                                                          profiles: [profile]))
            if messages.count == 1, messages[0].bytes == message { count += 1 }
            // The first exact copy is the message; everything else delivered is false.
            let exact = messages.contains { $0.bytes == message } ? 1 : 0
            falseDeliveries += messages.count - exact
        }
        return (count, falseDeliveries)
    }

    @Test("white noise: success rate at and above each profile's working SNR",
          arguments: [(ModemProfile.ultrasonic, -11.0, 30, 29), (.ultrasonicFast, 5, 20, 20),
                      (.audible, 0, 20, 20), (.audibleFast, 5, 20, 20)])
    func whiteNoise(profile: ModemProfile, snrDB: Double, trials: Int, required: Int) throws {
        let got = try Self.successes(profile: profile, trials: trials, seedBase: 100) { signal, power, seed in
            ModemChannel.addNoise(signal, signalPower: power, snrDB: snrDB, seed: seed)
        }
        #expect(got >= required, "\(profile) at \(snrDB) dB: \(got) of \(trials)")
    }

    @Test("white noise far below the working SNR: decoding fails, and nothing false is delivered")
    func hopelessNoise() throws {
        let got = try Self.outcomes(profile: .ultrasonic, trials: 10, seedBase: 200) { signal, power, seed in
            ModemChannel.addNoise(signal, signalPower: power, snrDB: -20, seed: seed)
        }
        #expect(got.successes == 0, "\(got.successes) of 10 decoded at −20 dB SNR")
        #expect(got.falseDeliveries == 0, "\(got.falseDeliveries) false (garbled or extra) message(s) delivered")
    }

    @Test("ultrasonic at 44.1 and 96 kHz in noise", arguments: [44_100.0, 96_000])
    func otherRates(sampleRateHz: Double) throws {
        let got = try Self.successes(profile: .ultrasonic, sampleRateHz: sampleRateHz, trials: 10, seedBase: 300) {
            signal, power, seed in ModemChannel.addNoise(signal, signalPower: power, snrDB: -6, seed: seed)
        }
        #expect(got >= 10, "\(got) of 10")
    }

    @Test("reverberant room (direct = reverberant energy)",
          arguments: [(ModemProfile.ultrasonic, 0.6, 12, 11), (.audible, 0.3, 10, 10), (.audible, 0.6, 10, 9),
                      (.audibleFast, 0.3, 10, 10), (.ultrasonicFast, 0.3, 10, 10)])
    func reverb(profile: ModemProfile, rt60Seconds: Double, trials: Int, required: Int) throws {
        let got = try Self.successes(profile: profile, trials: trials, seedBase: 400) { signal, power, seed in
            let response = ModemChannel.roomImpulseResponse(rt60Seconds: rt60Seconds, sampleRateHz: 48_000, seed: seed)
            return ModemChannel.addNoise(ModemChannel.convolve(signal, response), signalPower: power, snrDB: 30, seed: seed)
        }
        #expect(got >= required, "\(profile) RT60 \(rt60Seconds) s: \(got) of \(trials)")
    }

    @Test("ultrasonic-fast in a room with the sender's clock off (the equalizer reads the clock again)",
          arguments: [150.0, -60, 1000])
    func reverbAndClockOffset(ppm: Double) throws {
        let got = try Self.successes(profile: .ultrasonicFast, trials: 4, seedBase: 450) { signal, power, seed in
            let response = ModemChannel.roomImpulseResponse(rt60Seconds: 0.3, sampleRateHz: 48_000, seed: seed)
            let shifted = ModemChannel.clockOffset(signal, epsilon: ppm * 1e-6)
            return ModemChannel.addNoise(ModemChannel.convolve(shifted, response), signalPower: power, snrDB: 30, seed: seed)
        }
        #expect(got == 4, "\(ppm) ppm: \(got) of 4")
    }

    /// Each alone, `ultrasonic` holds at −11 dB (see `whiteNoise`, `clockOffset`, `reverb`); all at once it needs
    /// about −3 dB (modem-bench `--combined`: 7 % of 100 at −11 dB, 98–100 % of 50 at −3 dB, 100 % at 0 dB).
    @Test("ultrasonic: white noise, a room (RT60 0.6 s) and the sender's clock off, all at once",
          arguments: [1000.0, -1000])
    func noiseRoomAndClock(ppm: Double) throws {
        let got = try Self.successes(profile: .ultrasonic, trials: 3, seedBase: 520) { signal, power, seed in
            let shifted = ModemChannel.clockOffset(signal, epsilon: ppm * 1e-6)
            let response = ModemChannel.roomImpulseResponse(rt60Seconds: 0.6, sampleRateHz: 48_000, seed: seed)
            return ModemChannel.addNoise(ModemChannel.convolve(shifted, response), signalPower: power, snrDB: 0, seed: seed)
        }
        #expect(got == 3, "\(ppm) ppm, RT60 0.6 s, 0 dB: \(got) of 3")
    }

    @Test("ultrasonic-fast through a dozen strong echoes (the live test's room)", arguments: [48_000.0, 96_000])
    func echoes(sampleRateHz: Double) throws {
        let got = try Self.successes(profile: .ultrasonicFast, sampleRateHz: sampleRateHz, trials: 4, seedBase: 470) {
            signal, power, seed in
            ModemChannel.addNoise(ModemChannel.convolve(signal, ModemChannel.echoResponse(sampleRateHz: sampleRateHz)),
                                  signalPower: power, snrDB: 30, seed: seed)
        }
        #expect(got == 4, "\(got) of 4")
    }

    @Test("±1000 ppm clock offset between sender and receiver",
          arguments: ModemProfile.allCases, [1000.0, -1000])
    func clockOffset(profile: ModemProfile, ppm: Double) throws {
        let got = try Self.successes(profile: profile, trials: 2, seedBase: 500) { signal, power, seed in
            ModemChannel.addNoise(ModemChannel.clockOffset(signal, epsilon: ppm * 1e-6), signalPower: power,
                                  snrDB: 10, seed: seed)
        }
        #expect(got == 2)
    }

    @Test("sent at 44.1 kHz, received at 48 kHz (resampled)")
    func crossRate() throws {
        let modulator = try ModemModulator(profile: .ultrasonic, sampleRateHz: 44_100)
        let message = Array("from 44.1 to 48".utf8)
        let sent = [Float](repeating: 0, count: 3000) + (try modulator.render(message: message, messageID: 7))
        let received = ModemChannel.clockOffset(sent, epsilon: 44_100.0 / 48_000 - 1)
        let messages = ModemChannel.messages(try ModemChannel.receive(received, sampleRateHz: 48_000, profiles: nil))
        #expect(messages.map(\.bytes) == [message])
    }

    @Test("a gain change during the message, a very quiet and a clipped transmission")
    func gainAndClipping() throws {
        let modulator = try ModemModulator(profile: .ultrasonic, sampleRateHz: 48_000)
        let message = Array("gain, clipping".utf8)
        let sent = try modulator.render(message: message, messageID: 8)
        let half = sent.count / 2
        let stepped = sent.enumerated().map { $0.offset < half ? $0.element : $0.element * 0.25 }
        let quiet = sent.map { $0 * 1e-4 }
        let clipped = sent.map { max(-0.2, min(0.2, $0 * 2)) }  // peak 1.0 clipped at 0.2
        for signal in [stepped, quiet, clipped] {
            let padded = [Float](repeating: 0, count: 500) + signal
            let messages = ModemChannel.messages(try ModemChannel.receive(padded, sampleRateHz: 48_000,
                                                                          profiles: [.ultrasonic]))
            #expect(messages.map(\.bytes) == [message])
        }
    }
}
