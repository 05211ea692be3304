#if canImport(Glibc)
import Glibc
#endif
import ToneDSP

/// One reading as the control outputs show it, passed from the worker to
/// `work_response` (the host copies it; plain values only).
struct AnalyzerReading: BitwiseCopyable {
    /// What the dB outputs show when there is nothing to measure (their `lv2:minimum`).
    static let floorDB: Float = -200

    var frequencyHz: Float = 0
    var levelDBFS: Float = floorDB
    var snrDB: Float = floorDB
    /// MIDI note number, or -1.
    var note: Float = -1
    var cents: Float = 0
    var sigmaHz: Float = 0
    var sigmaCents: Float = 0
    /// 1 when there is a tone (or pitch), else 0.
    var valid: Float = 0

    init() {}

    /// `report`'s reading, from a window of `windowFrames` at `sampleRateHz`,
    /// its note named in `temperament`.
    init(_ report: ToneReport, windowFrames: Int, sampleRateHz: Double, temperament: EqualTemperament) {
        let reading = report.reading
        guard let frequency = reading.frequencyHz, frequency.isFinite else { return }
        frequencyHz = Float(frequency)
        valid = 1
        if let level = reading.levelDBFS, level.isFinite { levelDBFS = Float(max(level, Double(Self.floorDB))) }
        if let nearest = temperament.nearestNote(frequencyHz: frequency) {
            note = Float(nearest.midiNote)
            cents = Float(nearest.cents)
        }
        guard let snr = reading.snrDB, snr.isFinite else { return }
        snrDB = Float(max(snr, Double(Self.floorDB)))
        let sigma = Self.cramerRaoSigmaHz(snrDB: snr, frames: windowFrames, sampleRateHz: sampleRateHz)
        sigmaHz = Float(sigma)
        sigmaCents = Float(1200 / M_LN2 * sigma / frequency)
    }

    /// The Cramér–Rao bound on the frequency of one sinusoid in white noise,
    /// as a standard deviation in Hz: `fs/2π · √(12 / (SNR · N(N²−1)))`
    /// (Rife and Boorstyn 1974), with SNR the tone's power over the noise's,
    /// which the estimator reaches (`SinusoidFit` is the maximum-likelihood fit).
    static func cramerRaoSigmaHz(snrDB: Double, frames: Int, sampleRateHz: Double) -> Double {
        let snr = pow(10, snrDB / 10)
        let n = Double(frames)
        return sampleRateHz / (2 * Double.pi) * (12 / (snr * n * (n * n - 1))).squareRoot()
    }
}
