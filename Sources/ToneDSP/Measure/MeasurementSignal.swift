#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `measure` plays, and where each part sits.
///
/// Layout (frames from the start of playback, which is also the start of the
/// recording): a short silence, the exponential sweep, a silence of
/// `maxLatencyFrames` (the sweep's tail must arrive before the tone starts),
/// the test tone with raised-cosine ramps, then silence while the recording
/// goes on for `maxLatencyFrames` more.
public struct MeasurementSignal: Sendable {
    /// Settings of one measurement.
    public struct Plan: Sendable, Equatable {
        public var sampleRateHz: Double
        /// Peak level of the sweep and of the tone (0 dBFS: full-scale sine).
        public var levelDBFS: Double = -12
        public var toneFrequencyHz: Double = 1000
        public var toneSeconds: Double = 1
        public var sweepStartHz: Double = 20
        /// Default: 20 kHz, or 95 % of the Nyquist frequency when that is lower.
        public var sweepEndHz: Double
        public var sweepSeconds: Double = 2
        /// Longest round trip the analysis can find.
        public var maxLatencySeconds: Double = 0.5

        public init(sampleRateHz: Double) {
            self.sampleRateHz = sampleRateHz
            sweepEndHz = min(20_000, 0.95 * sampleRateHz / 2)
        }

        // MARK: Limits (the command line checks against these before the rate is known)

        public static let sweepSecondsRange = 0.25...60.0
        public static let toneSecondsRange = 0.25...60.0
        public static let maxLatencySecondsRange = 0.05...10.0

        /// A plan that does not fit the server's rate, as one sentence.
        public struct Problem: Error, CustomStringConvertible, Equatable {
            public let description: String
        }

        /// The plan, or the reason it cannot be played at its rate.
        public func validated() throws(Problem) -> Plan {
            if let problem { throw Problem(description: problem) }
            return self
        }

        /// A sentence saying what is wrong, or nil.
        public var problem: String? {
            let nyquist = sampleRateHz / 2
            if !(toneFrequencyHz > 0 && toneFrequencyHz < nyquist) {
                return "the test tone \(toneFrequencyHz) Hz must be between 0 and the Nyquist frequency \(nyquist) Hz of this server"
            }
            if !(sweepStartHz > 0 && sweepEndHz > sweepStartHz * 2 && sweepEndHz < nyquist) {
                return "the sweep \(sweepStartHz)–\(sweepEndHz) Hz must span at least an octave below the Nyquist frequency \(nyquist) Hz"
            }
            if !(levelDBFS.isFinite && levelDBFS <= 0) { return "the level must be at or below 0 dBFS" }
            if !Self.sweepSecondsRange.contains(sweepSeconds) { return "the sweep must last 0.25 to 60 s" }
            if !Self.toneSecondsRange.contains(toneSeconds) { return "the tone must last 0.25 to 60 s" }
            if !Self.maxLatencySecondsRange.contains(maxLatencySeconds) { return "the maximum latency must be 0.05 to 10 s" }
            return nil
        }
    }

    public let plan: Plan
    public let sweep: ExponentialSweep
    /// The sweep as played (before conversion to Float).
    public let sweepSamples: [Double]
    public let sweepStartFrame: Int
    public let toneStartFrame: Int
    public let toneFrames: Int
    public let toneRampFrames: Int
    public let maxLatencyFrames: Int
    /// Everything played, from frame 0.
    public let stimulus: [Float]
    /// Frames to record (the stimulus plus the longest latency).
    public var recordingFrames: Int { stimulus.count + maxLatencyFrames }
    /// Peak amplitude of sweep and tone.
    public var amplitude: Double { Decibels.amplitude(dbfs: plan.levelDBFS) }

    public init(plan: Plan) {
        self.plan = plan
        let rate = plan.sampleRateHz
        let sweepFrames = Int((plan.sweepSeconds * rate).rounded())
        sweep = ExponentialSweep(startHz: plan.sweepStartHz, endHz: plan.sweepEndHz,
                                 frames: sweepFrames, sampleRateHz: rate)
        let amplitude = Decibels.amplitude(dbfs: plan.levelDBFS)
        // Round the played sweep to Float first so the analysis divides by exactly what went out.
        sweepSamples = sweep.samples(amplitude: amplitude).map { Double(Float($0)) }
        maxLatencyFrames = Int((plan.maxLatencySeconds * rate).rounded(.up))
        sweepStartFrame = Int(0.05 * rate)
        toneStartFrame = sweepStartFrame + sweepFrames + maxLatencyFrames
        toneFrames = Int((plan.toneSeconds * rate).rounded())
        toneRampFrames = max(1, Int(0.01 * rate))
        var stimulus = [Float](repeating: 0, count: toneStartFrame + toneFrames)
        for (index, value) in sweepSamples.enumerated() { stimulus[sweepStartFrame + index] = Float(value) }
        let omega = 2 * Double.pi * plan.toneFrequencyHz / rate
        for n in 0..<toneFrames {
            var value = amplitude * sin(omega * Double(n))
            let edge = min(n, toneFrames - 1 - n)
            if edge < toneRampFrames {
                value *= 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(toneRampFrames))
            }
            stimulus[toneStartFrame + n] = Float(value)
        }
        self.stimulus = stimulus
    }
}
