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
        public var levelDBFS = Self.defaultLevelDBFS
        public var toneFrequencyHz = Self.defaultToneFrequencyHz
        public var toneSeconds: Double = 1
        public var sweepStartHz: Double = Self.defaultSweepStartHz
        /// Default: 20 kHz, or 95 % of the Nyquist frequency when that is lower.
        public var sweepEndHz: Double
        public var sweepSeconds = Self.defaultSweepSeconds
        /// Longest round trip the analysis can find.
        public var maxLatencySeconds = Self.defaultMaxLatencySeconds
        /// Peak levels of the level sweep's steps (a tone at `toneFrequencyHz`
        /// after the test tone), quietest first; empty: no level sweep.
        public var levelStepsDBFS: [Double] = []
        public var levelStepSeconds = Self.defaultLevelStepSeconds
        /// Length of the idle-noise silence and of the −60 dBFS tone after it
        /// (`measure --what noise`); 0: neither.
        public var noiseSeconds: Double = 0
        /// Length of each intermodulation signal (SMPTE 60 Hz + 7 kHz 4:1, then
        /// CCIF 19 + 20 kHz 1:1, both at `levelDBFS` peak; `measure --what imd`); 0: neither.
        public var imdSeconds: Double = 0
        /// MIDI notes to send for the MIDI-to-audio latency (`measure --what midi`),
        /// one every `midiNoteSpacingSeconds`, after the intermodulation signals; 0: none.
        public var midiNotes = 0
        /// Time from one note-on to the next: the longest MIDI-to-audio latency
        /// the analysis can find is a little under it (`MIDILatencyAnalyzer`).
        public var midiNoteSpacingSeconds = Self.defaultMIDINoteSpacingSeconds
        public var midiNoteNumber: UInt8 = 60
        public var midiVelocity: UInt8 = 100
        /// MIDI channel 0…15 (shown as 1…16).
        public var midiChannel: UInt8 = 0
        /// Channels of a crosstalk matrix (`measure --channels N --what crosstalk`):
        /// after everything else, each channel's output plays the sweep alone in turn; 1: none.
        public var crosstalkChannels = 1

        public init(sampleRateHz: Double) {
            self.sampleRateHz = sampleRateHz
            sweepEndHz = min(Self.defaultSweepEndHz, 0.95 * sampleRateHz / 2)
        }

        // MARK: Limits (the command line checks against these before the rate is known)

        /// How long a sweep, the test tone or an intermodulation signal may last.
        public static let signalSecondsRange = 0.25...60.0
        public static let sweepSecondsRange = signalSecondsRange
        public static let toneSecondsRange = signalSecondsRange
        public static let maxLatencySecondsRange = 0.05...10.0
        /// How far apart MIDI notes may be.
        public static let midiNoteSpacingSecondsRange = 0.05...10.0
        /// What `measure --what` plays for each extra measurement: one level
        /// step, the idle-noise silence (and the −60 dBFS tone after it, as
        /// long), each intermodulation signal, the time between MIDI notes.
        public static let defaultLevelStepSeconds = 0.25
        public static let defaultNoiseSeconds = 1.0
        public static let defaultIMDSeconds = 1.0
        public static let defaultMIDINoteSpacingSeconds = 0.25

        /// How much longer the noise measurement makes a run: the silence and
        /// the tone, after a wait of the longest latency (the earlier parts' tail).
        public static func noiseExtraSeconds(maxLatencySeconds: Double = defaultMaxLatencySeconds) -> Double {
            2 * defaultNoiseSeconds + maxLatencySeconds
        }

        /// How much longer intermodulation makes a run: its two signals, SMPTE then CCIF.
        public static let imdExtraSeconds = 2 * defaultIMDSeconds
        /// The defaults `measure` offers (its options declare them from here).
        public static let defaultLevelDBFS = -12.0
        public static let defaultToneFrequencyHz = 1000.0
        public static let defaultSweepSeconds = 2.0
        public static let defaultMaxLatencySeconds = 0.5
        /// Where the sweep starts and ends by default (the end also below 95 % of Nyquist).
        public static let defaultSweepStartHz = 20.0
        public static let defaultSweepEndHz = 20_000.0
        /// How many MIDI notes the MIDI-to-audio latency may send.
        public static let midiNotesRange = 0...4096

        /// The sweep's own rule: positive, and its end at least an octave above its start.
        public static func sweepSpansAnOctave(startHz: Double, endHz: Double) -> Bool {
            startHz > 0 && endHz > startHz * 2
        }

        /// `range` in a sentence: `0.25 to 60`.
        static func text(_ range: ClosedRange<Double>) -> String {
            func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
            return "\(number(range.lowerBound)) to \(number(range.upperBound))"
        }

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
            if !ToneFrequency.plays(toneFrequencyHz, sampleRateHz: sampleRateHz) {
                return "the test tone \(toneFrequencyHz) Hz must be between 0 and the Nyquist frequency \(nyquist) Hz of this server"
            }
            if !(Self.sweepSpansAnOctave(startHz: sweepStartHz, endHz: sweepEndHz) && sweepEndHz < nyquist) {
                return "the sweep \(sweepStartHz)–\(sweepEndHz) Hz must span at least an octave below the Nyquist frequency \(nyquist) Hz"
            }
            if !(levelDBFS.isFinite && levelDBFS <= 0) { return "the level must be at or below 0 dBFS" }
            if !Self.sweepSecondsRange.contains(sweepSeconds) { return "the sweep must last \(Self.text(Self.sweepSecondsRange)) s" }
            if !Self.toneSecondsRange.contains(toneSeconds) { return "the tone must last \(Self.text(Self.toneSecondsRange)) s" }
            if !Self.maxLatencySecondsRange.contains(maxLatencySeconds) {
                return "the maximum latency must be \(Self.text(Self.maxLatencySecondsRange)) s"
            }
            if !levelStepsDBFS.allSatisfy({ $0.isFinite && $0 <= 0 && $0 >= -200 }) {
                return "the level sweep's steps must be between -200 and 0 dBFS"
            }
            if !levelStepsDBFS.isEmpty && !(0.1...10).contains(levelStepSeconds) { return "a level step must last 0.1 to 10 s" }
            if noiseSeconds != 0 && !(0.5...60).contains(noiseSeconds) { return "the noise measurement must last 0.5 to 60 s" }
            if imdSeconds != 0 && !Self.signalSecondsRange.contains(imdSeconds) {
                return "each intermodulation signal must last \(Self.text(Self.signalSecondsRange)) s"
            }
            if !Self.midiNotesRange.contains(midiNotes) {
                return "the MIDI measurement takes \(Self.midiNotesRange.lowerBound) to \(Self.midiNotesRange.upperBound) notes"
            }
            if midiNotes > 0 && !Self.midiNoteSpacingSecondsRange.contains(midiNoteSpacingSeconds) {
                return "MIDI notes must be \(Self.text(Self.midiNoteSpacingSecondsRange)) s apart"
            }
            if midiNoteNumber > 127 || midiVelocity > 127 || midiVelocity == 0 || midiChannel > 15 {
                return "the MIDI note and velocity must be 0…127 (velocity at least 1) and the channel 0…15"
            }
            if !(1...AudioChannels.maximum).contains(crosstalkChannels) { return "the crosstalk matrix takes 1 to \(AudioChannels.maximum) channels" }
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
    /// First frame of the level sweep (the end of the test tone); its steps follow each other.
    public let levelStartFrame: Int
    public let levelStepFrames: Int
    /// The idle-noise silence (`noiseFrames` long, after the level sweep and
    /// `maxLatencyFrames` of silence for its tail), then the −60 dBFS tone.
    public let noiseStartFrame: Int
    public let noiseFrames: Int
    public var dynamicRangeToneStartFrame: Int { noiseStartFrame + noiseFrames }
    /// The SMPTE twin tone, then the CCIF twin tone, `imdFrames` each.
    public let imdStartFrame: Int
    public let imdFrames: Int
    /// The MIDI notes (`measure --what midi`): note k's note-on at
    /// `midiStartFrame + k·midiSpacingFrames`, its note-off half a spacing later.
    public let midiStartFrame: Int
    public let midiSpacingFrames: Int
    public var midiNoteOnFrames: [Int] { (0..<plan.midiNotes).map { midiStartFrame + $0 * midiSpacingFrames } }
    /// Every MIDI message, in frame order.
    public var midiMessages: [TimedMIDIMessage] {
        midiNoteOnFrames.flatMap { frame in
            [TimedMIDIMessage(frame: frame, status: 0x90 | plan.midiChannel, data1: plan.midiNoteNumber, data2: plan.midiVelocity),
             TimedMIDIMessage(frame: frame + midiSpacingFrames / 2, status: 0x80 | plan.midiChannel,
                              data1: plan.midiNoteNumber, data2: 0)]
        }
    }
    /// The crosstalk slots: slot j (one per channel) plays the sweep on channel j alone.
    public let crosstalkStartFrame: Int
    /// A sweep and the longest latency after it.
    public var crosstalkSlotFrames: Int { sweep.frames + maxLatencyFrames }
    /// Peak level of the dynamic-range tone (AES17: −60 dBFS).
    public static let dynamicRangeToneDBFS = -60.0
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
        levelStartFrame = toneStartFrame + toneFrames
        levelStepFrames = Int((plan.levelStepSeconds * rate).rounded())
        let levelEnd = levelStartFrame + plan.levelStepsDBFS.count * levelStepFrames
        noiseFrames = Int((plan.noiseSeconds * rate).rounded())
        noiseStartFrame = noiseFrames == 0 ? levelEnd : levelEnd + maxLatencyFrames
        imdStartFrame = noiseStartFrame + 2 * noiseFrames
        imdFrames = Int((plan.imdSeconds * rate).rounded())
        // The MIDI notes after the audio's tail: the last signal's latency must not look like an answer.
        let imdEnd = imdStartFrame + 2 * imdFrames
        midiSpacingFrames = Int((plan.midiNoteSpacingSeconds * rate).rounded())
        midiStartFrame = plan.midiNotes > 0 ? imdEnd + maxLatencyFrames : imdEnd
        crosstalkStartFrame = midiStartFrame + plan.midiNotes * midiSpacingFrames
        let crosstalkSlots = plan.crosstalkChannels > 1 ? plan.crosstalkChannels : 0
        var stimulus = [Float](repeating: 0, count: crosstalkStartFrame + crosstalkSlots * (sweepFrames + maxLatencyFrames))
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
        Self.renderLevelSteps(plan, omega: omega, into: &stimulus, from: levelStartFrame,
                              stepFrames: levelStepFrames, rampFrames: toneRampFrames)
        if noiseFrames > 0 {
            let toneAmplitude = Decibels.amplitude(dbfs: Self.dynamicRangeToneDBFS)
            for n in 0..<noiseFrames {
                let edge = min(n, noiseFrames - 1 - n)
                let ramp = edge < toneRampFrames ? 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(toneRampFrames)) : 1
                stimulus[noiseStartFrame + noiseFrames + n] = Float(toneAmplitude * ramp * sin(omega * Double(n)))
            }
        }
        for (index, pair) in IntermodulationAnalyzer.tonePairs(plan).enumerated() where imdFrames > 0 {
            let start = imdStartFrame + index * imdFrames
            let w1 = 2 * Double.pi * pair.lowHz / rate, w2 = 2 * Double.pi * pair.highHz / rate
            for n in 0..<imdFrames {
                let edge = min(n, imdFrames - 1 - n)
                let ramp = edge < toneRampFrames ? 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(toneRampFrames)) : 1
                stimulus[start + n] = Float(ramp * (pair.lowAmplitude * sin(w1 * Double(n)) + pair.highAmplitude * sin(w2 * Double(n))))
            }
        }
        if crosstalkSlots > 0 {
            for (index, value) in sweepSamples.enumerated() { stimulus[crosstalkStartFrame + index] = Float(value) }
        }
        self.stimulus = stimulus
    }

    /// What output `channel` plays: channel 0 everything (its crosstalk slot
    /// included); the others only the sweep in their own crosstalk slot.
    public func stimulus(channel: Int) -> [Float] {
        guard channel > 0 else { return stimulus }
        var played = [Float](repeating: 0, count: stimulus.count)
        let start = crosstalkStartFrame + channel * crosstalkSlotFrames
        guard plan.crosstalkChannels > channel, start + sweepSamples.count <= played.count else { return played }
        for (index, value) in sweepSamples.enumerated() { played[start + index] = Float(value) }
        return played
    }

    /// The level sweep: one continuous sine (the test tone's frequency) whose
    /// amplitude steps from level to level with raised-cosine ramps, faded
    /// in at the start and out at the end.
    static func renderLevelSteps(_ plan: Plan, omega: Double, into stimulus: inout [Float], from start: Int,
                                 stepFrames: Int, rampFrames: Int) {
        let levels = plan.levelStepsDBFS.map { Decibels.amplitude(dbfs: $0) }
        guard !levels.isEmpty else { return }
        for n in 0..<(levels.count * stepFrames) {
            let step = n / stepFrames, within = n % stepFrames
            var amplitude = levels[step]
            if within < rampFrames {
                // Ramp from the previous step's level (silence before the first).
                let previous = step == 0 ? 0 : levels[step - 1]
                let weight = 0.5 - 0.5 * cos(Double.pi * Double(within) / Double(rampFrames))
                amplitude = previous + (amplitude - previous) * weight
            }
            let fromEnd = levels.count * stepFrames - 1 - n
            if fromEnd < rampFrames { amplitude *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(rampFrames)) }
            stimulus[start + n] = Float(amplitude * sin(omega * Double(n)))
        }
    }
}
