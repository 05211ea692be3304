#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The level sweep's steps, each fitted like the test tone (a four-parameter
/// sine fit to the steady middle of the step, the ramps and 20 ms either side
/// left out): gain, THD+N, compression against the quietest step.
///
/// Worker / main thread; never the audio thread.
public enum LevelSweepAnalyzer {
    public static func analyze(_ signal: MeasurementSignal, recording: UnsafeBufferPointer<Float>,
                               latencyFrames: Double) throws(ChainAnalyzer.Failure) -> LevelSweep {
        let plan = signal.plan
        let rate = plan.sampleRateHz
        let settle = signal.toneRampFrames + Int(0.02 * rate)
        let omega = 2 * Double.pi * plan.toneFrequencyHz / rate
        var points: [LevelSweep.Point] = []
        for (step, levelDBFS) in plan.levelStepsDBFS.enumerated() {
            let start = signal.levelStartFrame + step * signal.levelStepFrames + Int(latencyFrames.rounded()) + settle
            let count = signal.levelStepFrames - 2 * settle
            guard count >= 256, start >= 0, start + count <= recording.count else {
                throw .recordingTooShort(recording.count)
            }
            let segment = (0..<count).map { Double(recording[start + $0]) }
            let amplitude = Decibels.amplitude(dbfs: levelDBFS)
            guard let fit = segment.withUnsafeBufferPointer({
                SinusoidFit.refine($0, omegaStart: omega, maxStepRadians: 4 * Double.pi / Double(count))
            }), fit.amplitude > 0 else {
                // Nothing tone-like came back at this level (a gate, noise): no figure, not a failed run.
                points.append(.init(levelDBFS: levelDBFS, gainDB: -.infinity, thdPlusNoiseDB: .nan, compressionDB: .nan))
                continue
            }
            let sinePower = fit.amplitude * fit.amplitude / 2
            points.append(.init(levelDBFS: levelDBFS, gainDB: 20 * log10(fit.amplitude / amplitude),
                                thdPlusNoiseDB: 10 * log10(max(fit.residualPower, 1e-30 * sinePower) / sinePower),
                                compressionDB: 0))
        }
        if let reference = points.first(where: { $0.gainDB.isFinite })?.gainDB {
            for index in points.indices { points[index].compressionDB = points[index].gainDB - reference }
        }
        return LevelSweep(toneFrequencyHz: plan.toneFrequencyHz, points: points)
    }

    /// −60 … 0 dBFS in 3 dB steps: the default level sweep.
    public static let defaultStepsDBFS: [Double] = stride(from: quietestStepDBFS, through: 0, by: stepDB).map { $0 }
    /// The quietest of the default steps, and the spacing between them.
    public static let quietestStepDBFS = -60.0
    public static let stepDB = 3.0
}
