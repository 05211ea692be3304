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
    /// Seconds the frequency is fitted over (one window, or the steady span); 0 without a reading.
    var spanSeconds: Float = 0

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
        // The span the frequency covers: one window, or the steady span (`SteadySpan`).
        let spanFrames = reading.spanSeconds.map { Int(($0 * sampleRateHz).rounded()) } ?? windowFrames
        spanSeconds = Float(Double(spanFrames) / sampleRateHz)
        guard let snr = reading.snrDB, snr.isFinite else { return }
        snrDB = Float(max(snr, Double(Self.floorDB)))
        // The Cramér–Rao bound for that span, which the fits reach (`SinusoidFit` for a
        // window is the maximum-likelihood fit; `SteadySpan`'s phase line for the span).
        let sigma = CramerRaoBound.sigmaHz(snrDB: snr, frames: spanFrames, sampleRateHz: sampleRateHz)
        sigmaHz = Float(sigma)
        sigmaCents = Float(CramerRaoBound.sigmaCents(sigmaHz: sigma, frequencyHz: frequency))
    }
}
