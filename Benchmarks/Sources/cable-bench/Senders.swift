import Foundation
import ToneDSP
import ToneModem
import ToneTestSupport

/// One point of a sender's curve: net rate (payload bits over the whole
/// transmission's airtime) and whether the payload came back byte for byte.
struct RatePoint {
    var kbps: Double
    var exact: Bool
    var note: String
    /// Cable only: the rate of a long message (frames alone; chirp, training and header amortized).
    var streamingKbps = 0.0
}

enum Senders {
    static let rate = 48_000.0

    /// The cable profile: a probe (a one-byte transmission) through the channel, the
    /// plan from the SNR per band its training symbols measured, then `payload` under that plan
    /// through fresh noise of the same channel.
    static func cable(payload: [UInt8], snrDB: Double, seed: UInt64) throws -> RatePoint {
        let demodulator = try CableDemodulator(sampleRateHz: rate)
        let probe = try CableModulator(sampleRateHz: rate).render(message: [0x5A])
        guard let measured = demodulator.receive(Channel.apply(probe, sampleRateHz: rate, snrDB: snrDB, seed: seed)) else {
            return RatePoint(kbps: 0, exact: false, note: "probe not found")
        }
        let plan = CablePlan(bandSNRdB: measured.bandSNRdB)
        let modulator = try CableModulator(sampleRateHz: rate, plan: plan)
        guard let signal = try? modulator.render(message: payload) else {
            return RatePoint(kbps: 0, exact: false, note: "the plan leaves no room for a frame")
        }
        let reception = demodulator.receive(Channel.apply(signal, sampleRateHz: rate, snrDB: snrDB, seed: seed &+ 1))
        let exact = reception?.message == payload
        let seconds = Double(signal.count) / rate
        let bits = plan.bandBits.max() ?? 0
        let note = String(format: "%d-%d bit QAM, rate %.3f, probe %.1f dB", plan.bandBits.filter { $0 > 0 }.min() ?? 0, bits,
                          plan.codeRate.value, measured.bandSNRdB.reduce(0, +) / Double(measured.bandSNRdB.count))
        let frameSeconds = Double(CablePlan.symbolsPerFrame * modulator.geometry.symbolSamples) / rate
        let streaming = Double(8 * (try modulator.payloadBytesPerFrame())) / frameSeconds / 1000
        return RatePoint(kbps: exact ? Double(8 * payload.count) / seconds / 1000 : 0, exact: exact,
                         note: exact ? note : note + "; " + (reception?.summary ?? "nothing found"),
                         streamingKbps: exact ? streaming : 0)
    }

    /// A tone profile: `trials` seeded 32-byte messages; the rate is its net rate times the share delivered exactly.
    static func tones(_ profile: ModemProfile, snrDB: Double, trials: Int) throws -> RatePoint {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: rate)
        let airtime = modulator.airtimeSeconds(messageBytes: 32)
        var successes = 0
        for trial in 0..<trials {
            let seed = UInt64(trial + 1) &* 31 &+ UInt64(max(0, snrDB + 100))
            let message = ModemChannel.randomMessage(seed: seed)
            let signal = try modulator.render(message: message, messageID: UInt16(trial))
            let received = ModemChannel.messages(try ModemChannel.receive(
                Channel.apply(signal, sampleRateHz: rate, snrDB: snrDB, seed: seed), sampleRateHz: rate, profiles: [profile],
                chunkFrames: 4096))
            if received.count == 1, received[0].bytes == message { successes += 1 }
        }
        let share = Double(successes) / Double(trials)
        return RatePoint(kbps: 8 * 32 / airtime / 1000 * share, exact: successes == trials, note: "\(successes)/\(trials)")
    }

    /// amodem at its fastest setting that still decodes `payload` byte for byte on this channel (tried fastest first).
    static func amodem(_ amodem: AModem, payload: [UInt8], snrDB: Double, seed: UInt64) -> RatePoint {
        for setting in AModem.settings {
            // The whole payload at the fast settings (as ToneNode), about 3 s of data at the slow ones.
            let bytes = setting.kbps >= 28 ? payload.count : min(payload.count, setting.kbps * 1000 * 3 / 8)
            let part = Array(payload[0..<bytes])
            guard let audio = amodem.send(part, kbps: setting.kbps) else { continue }
            let received = Channel.apply(audio, sampleRateHz: setting.sampleRateHz, snrDB: snrDB, seed: seed)
            if amodem.receives(received, kbps: setting.kbps, payload: part) {
                let seconds = Double(audio.count) / setting.sampleRateHz
                return RatePoint(kbps: Double(8 * bytes) / seconds / 1000, exact: true,
                                 note: "BITRATE=\(setting.kbps), \(bytes) B")
            }
        }
        return RatePoint(kbps: 0, exact: false, note: "no setting decoded")
    }
}
