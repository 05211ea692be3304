#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

/// The noise per band on a transmission's decoded frames: each carrier as
/// received and equalized against the same as sent, summed over frames.
struct CableBandNoise {
    private var error = [Double](repeating: 0, count: CablePlan.bandCount)
    private var signal = [Double](repeating: 0, count: CablePlan.bandCount)

    /// One decoded frame's symbols, received and sent.
    mutating func take(received: [[Complex]], sent: [[Complex]], carrierCount: Int) {
        for (got, want) in zip(received, sent) {
            for carrier in 0..<min(carrierCount, got.count, want.count) where want[carrier].magnitudeSquared > 0 {
                let band = CablePlan.band(ofCarrier: carrier, carrierCount: carrierCount)
                let difference = Complex(got[carrier].re - want[carrier].re, got[carrier].im - want[carrier].im)
                error[band] += difference.magnitudeSquared
                signal[band] += want[carrier].magnitudeSquared
            }
        }
    }

    /// SNR per band (dB); empty when no frame was taken. A band that carried nothing reads as noiseless.
    var snrDB: [Double] {
        guard signal.contains(where: { $0 > 0 }) else { return [] }
        return zip(signal, error).map { signal, error in
            signal > 0 ? 10 * log10(signal / max(error, signal * 1e-16)) : 160
        }
    }
}
