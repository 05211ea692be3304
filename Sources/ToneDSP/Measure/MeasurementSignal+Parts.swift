/// Which parts of a measurement a moment of the recording belongs to: an xrun
/// there spoils the figures read from those parts and leaves the others.
extension MeasurementSignal {
    /// A part of the stimulus and the figures read from it.
    public struct Part: Sendable, Equatable {
        /// What a person calls the figures read from it ("the sweep (latency, response, harmonics)").
        public var name: String
        /// Stimulus frames, the chain's longest latency after it included.
        public var frames: Range<Int>
    }

    /// The parts this signal plays, in order (those with no frames left out).
    public var parts: [Part] {
        let tail = maxLatencyFrames
        let levelEnd = levelStartFrame + plan.levelStepsDBFS.count * levelStepFrames
        let candidates = [
            Part(name: "the sweep (latency, response, harmonics)", frames: sweepStartFrame..<sweepStartFrame + sweep.frames + tail),
            Part(name: "the test tone (gain, THD+N)", frames: toneStartFrame..<toneStartFrame + toneFrames + tail),
            Part(name: "the level steps (levels)", frames: levelStartFrame..<levelEnd + tail),
            Part(name: "the idle noise and the −60 dBFS tone (noise)", frames: noiseStartFrame..<noiseStartFrame + 2 * noiseFrames + tail),
            Part(name: "the twin tones (imd)", frames: imdStartFrame..<imdStartFrame + 2 * imdFrames + tail),
            Part(name: "the MIDI notes (midi)", frames: midiStartFrame..<crosstalkStartFrame + (plan.midiNotes > 0 ? tail : 0)),
            Part(name: "the crosstalk sweeps (crosstalk)", frames: crosstalkStartFrame..<recordingFrames),
        ]
        // A part this plan leaves out has no frames beyond the tail.
        return candidates.filter { $0.frames.count > tail }
    }

    /// The parts an xrun seen at each of `frames` (recording frames, each
    /// known to within `margin` frames) may have touched, in order, once each.
    public func parts(touchedAt frames: [Int], margin: Int) -> [Part] {
        parts.filter { part in
            frames.contains { $0 + margin >= part.frames.lowerBound && $0 - margin < part.frames.upperBound }
        }
    }
}
