#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Cramér–Rao bound on the frequency of one sinusoid in white noise:
/// the smallest standard deviation any unbiased estimate from `frames`
/// samples can have (Rife and Boorstyn 1974). It falls as `frames^(-3/2)`:
/// twice the time observed, 2.8 times closer.
public enum CramerRaoBound {
    /// `fs/2π · √(12 / (SNR · N(N²−1)))` in Hz, with SNR the tone's power over
    /// the noise's (as `ToneReading.snrDB` states it).
    public static func sigmaHz(snrDB: Double, frames: Int, sampleRateHz: Double) -> Double {
        let snr = pow(10, snrDB / 10)
        let n = Double(frames)
        return sampleRateHz / (2 * Double.pi) * (12 / (snr * n * (n * n - 1))).squareRoot()
    }

    /// The same bound in cents of `frequencyHz`.
    public static func sigmaCents(sigmaHz: Double, frequencyHz: Double) -> Double {
        1200 / M_LN2 * sigmaHz / frequencyHz
    }
}
