#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The crosstalk matrix from the crosstalk slots of a `MeasurementSignal`:
/// in slot j output j plays the sweep alone; every input's recording of the
/// slot is deconvolved, cut out with the window the direct path (input j)
/// gets around its own peak, transformed at each 1/3-octave frequency
/// (five frequencies across the band, power-averaged) and divided by the
/// direct path's transform.
///
/// Worker / main thread; never the audio thread.
public enum CrosstalkAnalyzer {
    static let preFrames = 1024
    static let windowFrames = 16384

    /// - Parameter recordings: one per channel, in channel order.
    public static func analyze(_ signal: MeasurementSignal, recordings: [UnsafeBufferPointer<Float>])
        throws(ChainAnalyzer.Failure) -> CrosstalkMatrix {
        let plan = signal.plan
        let channels = recordings.count
        let rate = plan.sampleRateHz
        let window = PulseTransform.window(firstOffset: -preFrames, lastOffset: windowFrames - preFrames - 1,
                                           fadeIn: preFrames / 2, fadeOut: windowFrames / 4)
        let spread = (-2...2).map { pow(2, Double($0) / 30) }
        let frequencies = HarmonicAnalyzer.twelfthOctaves(from: plan.sweepStartHz * 1.5, to: plan.sweepEndHz * 0.9)
            .enumerated().filter { $0.offset % 4 == 0 }.map(\.element)   // every fourth twelfth: third octaves on 1 kHz
        var paths: [CrosstalkMatrix.Path] = []
        for driven in 0..<channels {
            let start = signal.crosstalkStartFrame + driven * signal.crosstalkSlotFrames
            let direct = try SweepDeconvolution(signal, recording: recordings[driven], sweepStartFrame: start)
            let centre = direct.impulsePeak
            let directPiece = PulseTransform(direct.impulse, centre: centre, firstOffset: -preFrames, window: window)
            for measured in 0..<channels where measured != driven {
                let leak = try SweepDeconvolution(signal, recording: recordings[measured], sweepStartFrame: start,
                                                  requireSignal: false)
                let leakPiece = PulseTransform(leak.impulse, centre: centre, firstOffset: -preFrames, window: window)
                let points = frequencies.map { f -> CrosstalkMatrix.Point in
                    var ratio = 0.0
                    for factor in spread {
                        let omega = 2 * Double.pi * f * factor / rate
                        ratio += leakPiece.transform(omega: omega).value.magnitudeSquared
                            / max(directPiece.transform(omega: omega).value.magnitudeSquared, 1e-300)
                    }
                    return .init(frequencyHz: f, levelDB: 10 * log10(max(ratio / Double(spread.count), 1e-30)))
                }
                paths.append(.init(driven: driven, measured: measured, points: points))
            }
        }
        return CrosstalkMatrix(channels: channels, paths: paths)
    }
}
