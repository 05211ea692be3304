import ToneDSP

/// Everything needed to start a node, as the user gave it.
public struct NodeSettings: Sendable {
    public var clientName = "tonenode"
    /// nil: `$JACK_DEFAULT_SERVER` or the default server.
    public var serverName: String?
    public var frequencyHz = 1000.0
    public var levelDBFS = -18.0
    public var muted = false
    public var fftSize = 4096
    public var hopFrames = 512
    public var lowHz = 20.0
    /// nil: the server's Nyquist frequency.
    public var highHz: Double?
    public var snrMinDB = -20.0
    /// `--mode`: single tone or musical pitch.
    public var mode: AnalysisMode = .tone
    /// Pitch mode: range of the fundamental, in Hz.
    public var pitchLowHz = PitchDetectorConfiguration.defaultLowHz
    public var pitchHighHz = PitchDetectorConfiguration.defaultHighHz
    /// Reference A4 for note names and cents.
    public var a4Hz = 440.0
    /// Ports to connect to our `in` (sources) and from our `out` (destinations).
    public var connectIn: [String] = []
    public var connectOut: [String] = []
    /// Also connect our own `out` to our own `in` (self-test).
    public var loopback = false
    public var planning: FFTPlanning = .measure

    public init() {}

    /// The tone's peak amplitude (0 when muted).
    public var amplitude: Double { muted ? 0 : Decibels.amplitude(dbfs: levelDBFS) }

    /// Problems that need the server's sample rate to be found.
    public func problem(sampleRateHz: Double) -> String? {
        let nyquist = sampleRateHz / 2
        if frequencyHz >= nyquist {
            return "--freq \(format(frequencyHz)) Hz is at or above the Nyquist frequency \(format(nyquist)) Hz of this server"
        }
        if let highHz, highHz > nyquist {
            return "--band upper edge \(format(highHz)) Hz is above the Nyquist frequency \(format(nyquist)) Hz of this server"
        }
        if mode == .pitch { return pitchConfiguration(sampleRateHz: sampleRateHz).problem }
        return estimatorConfiguration(sampleRateHz: sampleRateHz).problem
    }

    public func estimatorConfiguration(sampleRateHz: Double) -> ToneEstimatorConfiguration {
        ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize, lowHz: lowHz,
                                   highHz: highHz ?? sampleRateHz / 2, snrMinDB: snrMinDB)
    }
}

/// Numbers in messages: no trailing `.0` on whole values.
func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
