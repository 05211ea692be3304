#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the idle-noise silence and the −60 dBFS tone of a `MeasurementSignal`
/// into a `NoiseMeasurement`.
///
/// Powers come from a Welch average (Hann 8192 — 32768 for hum — half overlapping, double
/// precision): the band power is `Σ 2|X_k|² / (N·Σw²)` over the band's bins,
/// exact for noise; A-weighting multiplies each bin by the IEC 61672 curve.
/// The dynamic-range tone is fitted (`SinusoidFit`) and the residual measured
/// the same way. Hum: the peaks at 50/60 Hz and their harmonics up to 1 kHz
/// that stand 10 dB above the noise around them.
///
/// Worker / main thread; never the audio thread.
public enum NoiseAnalyzer {
    static let fftSize = 8192

    public static func analyze(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>,
                               latencyFrames: Double) throws(ChainAnalyzer.Failure) -> NoiseMeasurement {
        let rate = signal.plan.sampleRateHz
        let settle = signal.toneRampFrames + Int(0.02 * rate)
        let shift = Int(latencyFrames.rounded())
        let count = signal.noiseFrames - 2 * settle
        let idleStart = signal.noiseStartFrame + shift + settle
        let toneStart = signal.dynamicRangeToneStartFrame + shift + settle
        guard count >= fftSize, idleStart >= 0, toneStart + count <= recording.count else {
            throw .recordingTooShort(recording.count)
        }
        let idle = (0..<count).map { Double(recording[idleStart + $0]) }
        var tone = (0..<count).map { Double(recording[toneStart + $0]) }
        let omega = 2 * Double.pi * signal.plan.toneFrequencyHz / rate
        guard let fit = tone.withUnsafeBufferPointer({
            SinusoidFit.refine($0, omegaStart: omega, maxStepRadians: 4 * Double.pi / Double(count))
        }) else { throw .noTone }
        // The residual of the fit (phasors as the fit's own, centred time base).
        SinusoidFit.forEachPhasor(count: count, omega: fit.omega) { index, cosine, sine in
            tone[index] -= fit.cosineAmplitude * cosine + fit.sineAmplitude * sine + fit.offset
        }

        let low = 20.0, high = min(20_000, 0.95 * rate / 2)
        let idleSpectrum = welch(idle)
        let toneSpectrum = welch(tone)
        let binHz = rate / Double(fftSize)
        func bandPower(_ spectrum: [Double], weighted: Bool) -> Double {
            var sum = 0.0
            for k in Int((low / binHz).rounded(.up))...Int((high / binHz).rounded(.down)) {
                sum += spectrum[k] * (weighted ? aWeightingPower(Double(k) * binHz) : 1)
            }
            return sum
        }
        // Against a full-scale sine's power, 1/2.
        func dbfs(_ power: Double) -> Double { 10 * log10(max(power, 1e-40) / 0.5) }
        // Hum needs finer bins than the band powers: 50 Hz must sit 20 bins above DC.
        let humSize = count >= 32768 ? 32768 : fftSize
        let humLines = hum(welch(idle, size: humSize), binHz: rate / Double(humSize))
        var measurement = NoiseMeasurement(noiseDBFS: dbfs(bandPower(idleSpectrum, weighted: false)),
                                           noiseAWeightedDBFS: dbfs(bandPower(idleSpectrum, weighted: true)),
                                           dynamicRangeDB: -dbfs(bandPower(toneSpectrum, weighted: true)),
                                           dynamicRangeUnweightedDB: -dbfs(bandPower(toneSpectrum, weighted: false)),
                                           humLines: humLines, bandLowHz: low, bandHighHz: high)
        let firstBin = Int((low / binHz).rounded(.up))
        func lines(_ spectrum: [Double]) -> [SpectrumLine] {
            (firstBin..<spectrum.count).map { SpectrumLine(frequencyHz: Double($0) * binHz, levelDB: dbfs(spectrum[$0])) }
        }
        measurement.idleSpectrum = lines(idleSpectrum)
        measurement.toneResidualSpectrum = lines(toneSpectrum)
        measurement.spectrumBinHz = binHz
        return measurement
    }

    /// Power per bin (one-sided, `0 … fftSize/2`), in units of the signal's
    /// variance: white noise of variance σ² sums to σ² over all bins.
    static func welch(_ x: [Double], size: Int = fftSize) -> [Double] {
        let n = size
        guard let fft = DoubleFFT(size: n) else { return [] }
        let window = CosineSumWindow.hann.values(size: n, sampling: .periodic)
        let windowPower = window.reduce(0) { $0 + $1 * $1 }
        var total = [Double](repeating: 0, count: n / 2 + 1)
        var frames = 0
        var start = 0
        while start + n <= x.count {
            for i in 0..<n { fft.real[i] = x[start + i] * window[i] }
            fft.forward()
            for k in 0...(n / 2) {
                let re = fft.bins[2 * k], im = fft.bins[2 * k + 1]
                total[k] += (k == 0 || k == n / 2 ? 1 : 2) * (re * re + im * im)
            }
            frames += 1
            start += n / 2
        }
        let scale = 1 / (Double(max(1, frames)) * Double(n) * windowPower)
        return total.map { $0 * scale }
    }

    /// IEC 61672 A-weighting as a power gain (0 dB at 1 kHz).
    static func aWeightingPower(_ f: Double) -> Double {
        let f2 = f * f
        let ra = 12194.0 * 12194.0 * f2 * f2
            / ((f2 + 20.6 * 20.6) * ((f2 + 107.7 * 107.7) * (f2 + 737.9 * 737.9)).squareRoot() * (f2 + 12194.0 * 12194.0))
        let gain = ra * pow(10, 2.0 / 20)
        return gain * gain
    }

    /// 50 and 60 Hz and their harmonics up to 1 kHz whose peak (±2 bins)
    /// stands 10 dB above the median of the bins 4…20 away, and above −200 dBFS.
    static func hum(_ spectrum: [Double], binHz: Double) -> [NoiseMeasurement.HumLine] {
        var lines: [NoiseMeasurement.HumLine] = []
        for mains in [50.0, 60.0] {
            for harmonic in 1...Int(1000 / mains) {
                let centre = Int((Double(harmonic) * mains / binHz).rounded())
                guard centre >= 22, centre + 22 < spectrum.count else { continue }
                // A Hann-windowed sine's main lobe is four bins wide: the five bins around
                // the peak hold all but 0.1 % of its power (the bin powers sum to the
                // signal's power), less the noise under them.
                let peak = (centre - 2...centre + 2).max { spectrum[$0] < spectrum[$1] }!   // safe: a non-empty range
                let around = ((centre - 20)...(centre - 5)).map { spectrum[$0] } + ((centre + 5)...(centre + 20)).map { spectrum[$0] }
                let median = around.sorted()[around.count / 2]
                let linePower = (peak - 2...peak + 2).reduce(0) { $0 + spectrum[$1] } - 5 * median
                // Below −200 dBFS a "line" is arithmetic, not hum (a plugin's anti-denormal
                // offset over digital silence read as lines at −540 dBFS): not named.
                guard linePower > 10 * 5 * median, linePower > 0.5 * 1e-20 else { continue }
                lines.append(.init(frequencyHz: Double(harmonic) * mains, mainsHz: mains, harmonic: harmonic,
                                   levelDBFS: 10 * log10(linePower / 0.5)))
            }
        }
        return lines
    }
}
