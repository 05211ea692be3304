/// What the detector concluded about one analysis window.
public struct ToneReading: Sendable, Equatable {
    /// Frequency of the tone, `nil` when there is no tone.
    public var frequencyHz: Double?
    /// The tone's level: 20·log10 of its peak amplitude (full-scale sine = 0 dBFS).
    public var levelDBFS: Double?
    /// Tone power over the power of everything else in the window (full band).
    public var snrDB: Double?
    /// Level of the whole window as a sine-referenced RMS (AES17); `nil` on digital silence.
    public var rmsDBFS: Double?
    /// The window held NaN or ±Inf; nothing else is reported.
    public var invalidInput: Bool
    /// Every tone found, strongest first (the first is the one of the fields
    /// above). Filled only when the estimator looks for more than one tone
    /// (`maxTones` > 1); empty then means no tone.
    public var tones: [ToneComponent] = []
    /// Seconds of signal `frequencyHz` is fitted over when that is the steady
    /// span the tone has held (`SteadySpan`), longer than one window; nil: one window (or no tone).
    public var spanSeconds: Double?

    public init(frequencyHz: Double? = nil, levelDBFS: Double? = nil, snrDB: Double? = nil,
                rmsDBFS: Double? = nil, invalidInput: Bool = false) {
        self.frequencyHz = frequencyHz
        self.levelDBFS = levelDBFS
        self.snrDB = snrDB
        self.rmsDBFS = rmsDBFS
        self.invalidInput = invalidInput
    }

    public static let invalid = ToneReading(invalidInput: true)
}

/// A reading placed in time.
public struct ToneReport: Sendable, Equatable {
    /// End of the analysed window, in seconds from the stream's first frame.
    public var timeSeconds: Double
    public var reading: ToneReading
    /// The input channel it was heard on, from 0 (0 for a mono node or a file's chosen channel).
    public var channel: Int
    /// The note of `reading.frequencyHz`; present in pitch mode only.
    public var pitch: PitchReading?
    /// False when the window began before the node's connections were made
    /// (live only): it holds audio from before the signal could arrive, so it
    /// is not a reading of the signal (JSON `"settled": false`).
    public var settled = true
    /// True when nothing fed the input it was heard on as the node last
    /// looked at the graph (live only, and only on a report with no tone): its
    /// silence is a missing connection, not a quiet signal (JSON `"connected": false`).
    public var unconnected = false

    /// Sets `unconnected` when no tone was heard and nothing feeds this
    /// report's input: `unconnectedInputs` holds those channels (from 0).
    public mutating func markUnconnected(_ unconnectedInputs: Set<Int>) {
        unconnected = reading.frequencyHz == nil && !reading.invalidInput && unconnectedInputs.contains(channel)
    }

    public init(timeSeconds: Double, reading: ToneReading, channel: Int = 0, pitch: PitchReading? = nil) {
        self.timeSeconds = timeSeconds
        self.reading = reading
        self.channel = channel
        self.pitch = pitch
    }
}
