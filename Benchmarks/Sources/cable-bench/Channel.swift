import Foundation
import ToneTestSupport

/// The channel every sender crosses: its signal, then white Gaussian noise of
/// one spectral density. `snrDB` is the SNR in ToneNode's cable band (200 Hz to
/// 20 kHz, 19.8 kHz): mean signal power over the transmission (silence at its
/// ends not counted) against the noise in those 19.8 kHz. At another sample
/// rate the same density is the same noise per hertz, so amodem at 32 kHz and
/// a tone profile at 48 kHz meet the same channel.
enum Channel {
    static let bandHz = 19_800.0

    /// Mean power from the first to the last sample above 1e-6 of the peak.
    static func activePower(_ signal: [Float]) -> Double {
        let peak = signal.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0, let first = signal.firstIndex(where: { abs($0) > peak * 1e-6 }),
              let last = signal.lastIndex(where: { abs($0) > peak * 1e-6 }) else { return 0 }
        return ModemChannel.meanPower(Array(signal[first...last]), airtimeFrames: last - first + 1)
    }

    /// `signal` (at `sampleRateHz`) with silence around it and the noise of a channel at `snrDB` in the band.
    static func apply(_ signal: [Float], sampleRateHz: Double, snrDB: Double, seed: UInt64) -> [Float] {
        let padded = [Float](repeating: 0, count: Int(0.05 * sampleRateHz)) + signal
            + [Float](repeating: 0, count: Int(0.05 * sampleRateHz))
        // Full-band SNR (0 … fs/2) of the same noise density.
        let fullBandSNR = snrDB - 10 * log10(sampleRateHz / 2 / bandHz)
        return ModemChannel.addNoise(padded, signalPower: activePower(signal), snrDB: fullBandSNR, seed: seed)
    }

    /// Shannon's capacity of the 19.8 kHz band at `snrDB`, kbit/s.
    static func shannonKbps(_ snrDB: Double) -> Double { bandHz * log2(1 + pow(10, snrDB / 10)) / 1000 }
}
