#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SMPTE and CCIF intermodulation from the two twin-tone sections of a
/// `MeasurementSignal`: each component's amplitude is read by a windowed
/// transform (Hann squared) at its exact frequency over the steady part of
/// the section.
///
/// Worker / main thread; never the audio thread.
public enum IntermodulationAnalyzer {
    public struct TonePair: Sendable, Equatable {
        public var lowHz: Double
        public var highHz: Double
        public var lowAmplitude: Double
        public var highAmplitude: Double
    }

    /// SMPTE (60 Hz + 7 kHz, 4:1) and CCIF (19 + 20 kHz, 1:1, or 0.79·Nyquist + 1/19 of it below 44.1 kHz), combined peak at the plan's level.
    public static func tonePairs(_ plan: MeasurementSignal.Plan) -> [TonePair] {
        let peak = Decibels.amplitude(dbfs: plan.levelDBFS)
        let nyquist = plan.sampleRateHz / 2
        let ccifHigh = min(20_000, 0.95 * nyquist * 20 / 21)
        return [TonePair(lowHz: 60, highHz: 7000, lowAmplitude: 0.8 * peak, highAmplitude: 0.2 * peak),
                TonePair(lowHz: ccifHigh * 19 / 20, highHz: ccifHigh, lowAmplitude: 0.5 * peak, highAmplitude: 0.5 * peak)]
    }

    public static func analyze(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>,
                               latencyFrames: Double) throws(ChainAnalyzer.Failure) -> IntermodulationMeasurement {
        let rate = signal.plan.sampleRateHz
        let settle = signal.toneRampFrames + Int(0.02 * rate)
        let count = signal.imdFrames - 2 * settle
        let pairs = tonePairs(signal.plan)
        func section(_ index: Int) throws(ChainAnalyzer.Failure) -> [Double] {
            let start = signal.imdStartFrame + index * signal.imdFrames + Int(latencyFrames.rounded()) + settle
            guard count >= 1024, start >= 0, start + count <= recording.count else { throw .recordingTooShort(recording.count) }
            return (0..<count).map { Double(recording[start + $0]) }
        }
        // Hann squared: sidelobes falling 30 dB/octave, so the loud tones' skirts are
        // below −170 dB 60 Hz away (plain Hann left the float wire's SMPTE at −109 dB).
        let window = (0..<count).map { n -> Double in
            let hann = CosineSumWindow.hann.value(n, size: count, sampling: .periodic)
            return hann * hann
        }
        let windowSum = window.reduce(0, +)
        func amplitude(_ x: [Double], _ hz: Double) -> Double {
            let piece = PulseTransform(x, centre: 0, firstOffset: 0, window: window)
            return 2 * piece.transform(omega: 2 * Double.pi * hz / rate).value.magnitude / windowSum
        }

        let smpte = try section(0), s = pairs[0]
        let reference = amplitude(smpte, s.highHz)
        guard reference > 1e-4 * s.highAmplitude else { throw .noTone }
        var smpteProducts: [IntermodulationMeasurement.Product] = []
        var sumSquares = 0.0
        for n in 1...4 {
            let lower = amplitude(smpte, s.highHz - Double(n) * s.lowHz), upper = amplitude(smpte, s.highHz + Double(n) * s.lowHz)
            smpteProducts.append(.init(frequencyHz: s.highHz - Double(n) * s.lowHz, order: n + 1, levelDB: db(lower / reference)))
            smpteProducts.append(.init(frequencyHz: s.highHz + Double(n) * s.lowHz, order: n + 1, levelDB: db(upper / reference)))
            sumSquares += (lower + upper) * (lower + upper)
        }

        let ccif = try section(1), c = pairs[1]
        let sum = amplitude(ccif, c.lowHz) + amplitude(ccif, c.highHz)
        let difference = c.highHz - c.lowHz
        let d2 = amplitude(ccif, difference)
        let d3Low = amplitude(ccif, 2 * c.lowHz - c.highHz), d3High = amplitude(ccif, 2 * c.highHz - c.lowHz)
        let fitsD3 = 2 * c.highHz - c.lowHz < rate / 2
        let ccifProducts: [IntermodulationMeasurement.Product] =
            [.init(frequencyHz: difference, order: 2, levelDB: db(d2 / sum)),
             .init(frequencyHz: 2 * c.lowHz - c.highHz, order: 3, levelDB: db(d3Low / sum))]
            + (fitsD3 ? [.init(frequencyHz: 2 * c.highHz - c.lowHz, order: 3, levelDB: db(d3High / sum))] : [])
        var measurement = IntermodulationMeasurement(
            smpteDB: db(sumSquares.squareRoot() / reference), smpteProducts: smpteProducts,
            ccifD2DB: sum > 0 ? db(d2 / sum) : nil,
            ccifD3DB: sum > 0 ? db((d3Low + (fitsD3 ? d3High : 0)) / sum) : nil,
            ccifProducts: ccifProducts, ccifLowHz: c.lowHz, ccifHighHz: c.highHz)
        measurement.smpteSpectrum = SpectrumLine.hannSquaredSpectrum(smpte, sampleRateHz: rate, lowHz: 20, reference: reference)
        measurement.ccifSpectrum = SpectrumLine.hannSquaredSpectrum(ccif, sampleRateHz: rate, lowHz: 20, reference: max(sum, 1e-15))
        return measurement
    }

    static func db(_ ratio: Double) -> Double { 20 * log10(max(ratio, 1e-15)) }
}
