import Foundation
import ToneDSP
import ToneModem
import ToneTestSupport

/// One channel condition applied to many seeded transmissions.
enum Condition {
    case noise(snrDB: Double)
    /// A room, and white noise at `snrDB` (30 dB: the room alone).
    case reverb(rt60Seconds: Double, snrDB: Double = 30)
    case clock(ppm: Double, snrDB: Double)
    /// The sender's clock off by `ppm`, then the room, then white noise at `snrDB`: all three at once.
    case combined(ppm: Double, rt60Seconds: Double, snrDB: Double)

    /// The clock offset this condition applies to the transmission, if any.
    var ppm: Double? {
        switch self {
        case .clock(let ppm, _), .combined(let ppm, _, _): ppm
        default: nil
        }
    }

    var label: String {
        switch self {
        case .noise(let snr): String(format: "%+g dB", snr)
        case .reverb(let rt60, let snr): String(format: "RT60 %.1f s at %+g dB", rt60, snr)
        case .clock(let ppm, let snr): String(format: "%+g ppm @ %+g dB", ppm, snr)
        case .combined(let ppm, let rt60, let snr): String(format: "%+g ppm, RT60 %.1f s, %+g dB", ppm, rt60, snr)
        }
    }
}

/// Places a transmission at a seeded offset in silence and applies `condition`.
/// - Parameter airtimeFrames: the transmission's airtime, for its mean power.
func channel(_ transmission: [Float], airtimeFrames: Int, condition: Condition, sampleRateHz: Double,
             seed: UInt64) -> [Float] {
    var random = SeededRandom(seed: seed &* 7919 &+ 17)
    let lead = Int((0.1 + 0.2 * random.uniform()) * sampleRateHz)
    var signal = [Float](repeating: 0, count: lead) + transmission + [Float](repeating: 0, count: Int(0.3 * sampleRateHz))
    let power = ModemChannel.meanPower(transmission, airtimeFrames: airtimeFrames)
    switch condition {
    case .noise(let snr):
        signal = ModemChannel.addNoise(signal, signalPower: power, snrDB: snr, seed: seed)
    case .reverb(let rt60, let snr), .combined(_, let rt60, let snr):
        // For .combined the transmission was resampled once by the caller (its clock offset).
        let response = ModemChannel.roomImpulseResponse(rt60Seconds: rt60, sampleRateHz: sampleRateHz, seed: seed)
        signal = ModemChannel.convolve(signal, response)
        signal = ModemChannel.addNoise(signal, signalPower: power, snrDB: snr, seed: seed)
    case .clock(_, let snr):
        // The transmission was resampled once by the caller; only noise per trial.
        signal = ModemChannel.addNoise(signal, signalPower: power, snrDB: snr, seed: seed)
    }
    return signal
}

/// Success counts of ToneNode's modem: a trial succeeds when exactly the sent message is delivered.
func modemTrials(profile: ModemProfile, sampleRateHz: Double, condition: Condition, trials: Int) throws -> Int {
    let modulator = try ModemModulator(profile: profile, sampleRateHz: sampleRateHz)
    let airtimeFrames = Int(modulator.airtimeSeconds(messageBytes: 32) * sampleRateHz)
    var successes = 0
    var resampled: [Int: [Float]] = [:]
    for trial in 0..<trials {
        let seed = UInt64(trial + 1)
        let message = ModemChannel.randomMessage(seed: seed &+ 1000)
        var transmission = try modulator.render(message: message, messageID: UInt16(trial & 0xFFFF))
        if let ppm = condition.ppm {
            // Resample a handful of distinct messages once; reuse them across trials.
            let key = trial % 10
            if resampled[key] == nil {
                let keyMessage = ModemChannel.randomMessage(seed: UInt64(key) &+ 5000)
                let sent = try modulator.render(message: keyMessage, messageID: UInt16(key))
                resampled[key] = ModemChannel.clockOffset(sent, epsilon: ppm * 1e-6)
            }
            transmission = resampled[key] ?? transmission
            let keyMessage = ModemChannel.randomMessage(seed: UInt64(key) &+ 5000)
            let signal = channel(transmission, airtimeFrames: airtimeFrames, condition: condition,
                                 sampleRateHz: sampleRateHz, seed: seed)
            let received = ModemChannel.messages(try ModemChannel.receive(signal, sampleRateHz: sampleRateHz,
                                                                          profiles: [profile], chunkFrames: 1024))
            if received.count == 1, received[0].bytes == keyMessage { successes += 1 }
            continue
        }
        let signal = channel(transmission, airtimeFrames: airtimeFrames, condition: condition,
                             sampleRateHz: sampleRateHz, seed: seed)
        let received = ModemChannel.messages(try ModemChannel.receive(signal, sampleRateHz: sampleRateHz,
                                                                      profiles: [profile], chunkFrames: 1024))
        if received.count == 1, received[0].bytes == message { successes += 1 }
    }
    return successes
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// Mean wall time of the receiver alone (detection and decoding of one 32-byte
/// message in about a second of audio), per trial, with the channel made beforehand.
func receiveSeconds(profile: ModemProfile, sampleRateHz: Double, condition: Condition, trials: Int) throws -> Double {
    let modulator = try ModemModulator(profile: profile, sampleRateHz: sampleRateHz)
    let airtimeFrames = Int(modulator.airtimeSeconds(messageBytes: 32) * sampleRateHz)
    var total = Duration.zero
    for trial in 0..<trials {
        let seed = UInt64(trial + 1)
        let transmission = try modulator.render(message: ModemChannel.randomMessage(seed: seed &+ 1000),
                                                messageID: UInt16(trial & 0xFFFF))
        let signal = channel(transmission, airtimeFrames: airtimeFrames, condition: condition,
                             sampleRateHz: sampleRateHz, seed: seed)
        let clock = ContinuousClock()
        let started = clock.now
        _ = try ModemChannel.receive(signal, sampleRateHz: sampleRateHz, profiles: [profile], chunkFrames: 1024)
        total += clock.now - started
    }
    return total.seconds / Double(max(1, trials))
}
