import ToneDSP
import ToneModem

/// Everything needed to start a node, as the user gave it.
///
/// Each field's default, range and names are declared once, in `Parameters`.
/// Checked in one place, `problems(sampleRateHz:)` (NodeSettings+Validation);
/// saved in a session as an encoding of this type (NodeSettings+Session),
/// which also names the fields that are per launch and not saved.
public struct NodeSettings: Equatable, Sendable {
    public var clientName = "tonenode"
    /// nil: `$JACK_DEFAULT_SERVER` or the default server.
    public var serverName: String?
    public var frequencyHz: Double = Parameters.frequency.defaultValue
    public var levelDBFS: Double = Parameters.level.defaultValue
    public var muted: Bool = Parameters.mute.defaultValue
    /// Seconds a frequency or level change ramps over.
    public var glideSeconds: Double = Parameters.glide.defaultValue
    public var fftSize: Int = Parameters.fftSize.defaultValue
    public var hopFrames: Int = Parameters.hop.defaultValue
    public var lowHz: Double = Parameters.band.defaultValue
    /// nil: the server's Nyquist frequency.
    public var highHz: Double?
    public var snrMinDB: Double = Parameters.snrMin.defaultValue
    /// The longest steady span a reading integrates, in seconds (`--steady`; 0: one window).
    public var steadySpanSeconds: Double = Parameters.steady.defaultValue
    /// How many tones to report per window (`--tones K`).
    public var maxTones: Int = Parameters.tones.defaultValue
    /// `--mode`: single tone or musical pitch.
    public var mode: AnalysisMode = Parameters.mode.defaultValue
    /// Pitch mode: range of the fundamental, in Hz.
    public var pitchLowHz: Double = Parameters.pitchRange.defaultValue
    public var pitchHighHz: Double = PitchDetectorConfiguration.defaultHighHz
    /// Ports to connect to our `in` (sources) and from our `out` (destinations).
    public var connectIn: [String] = []
    public var connectOut: [String] = []
    /// Also connect our own `out` to our own `in` (self-test).
    public var loopback: Bool = Parameters.loopback.defaultValue
    public var planning: FFTPlanning = .measure
    /// Frequency of A4: note names and cents in pitch mode, MIDI notes on `midi_in`.
    public var a4Hz: Double = Parameters.a4.defaultValue
    /// Semitones of a full pitch-bend swing on `midi_in`.
    public var bendRangeSemitones: Double = Parameters.bendRange.defaultValue
    /// Audio channels: 1 gives ports `in`/`out`; more give `in_1`…, `out_1`…
    /// (every output plays the same tone; every input is analysed on its own).
    public var channels: Int = Parameters.channels.defaultValue
    /// Ports to connect to our `midi_in`.
    public var connectMidi: [String] = []
    /// Run the tone (or pitch) analysis on `in` and publish reports. Off for
    /// `tonenode send` and `receive`, so no estimator runs there.
    public var analyzesTones = true
    /// Decode messages sent as tones on `in` (`receive`, `run --receive`).
    public var receivesMessages: Bool = Parameters.receive.defaultValue
    /// The profiles listened for (nil: every profile the server's rate allows).
    public var messageProfiles: [ModemProfile]? = Parameters.receiveProfiles.defaultValue
    /// Decode cable transmissions on `in` too (`receive --profile cable`).
    public var receivesCable = false

    /// Decode messages, of `profile` alone when given (`receive --profile`,
    /// `run --receive-profile`); nil keeps every tone profile the rate carries.
    public mutating func receiveMessages(only profile: MessageFileProfile?) {
        receivesMessages = true
        switch profile {
        case .tones(let tones)?: messageProfiles = [tones]
        case .cable?:
            messageProfiles = []
            receivesCable = true
        case nil: break
        }
    }
    /// Set JACK metadata pretty names (`--no-metadata`: off). Per launch: it
    /// is about the user's JACK setup (a wedged metadata store), not the node.
    public var usesMetadata = true
    /// The ports the node registers (`send`: only `out`; `receive`: only `in`).
    public var ports: NodePorts = .all

    public init() {}


    /// The tone's peak amplitude (0 when muted).
    public var amplitude: Double { muted ? 0 : levelAmplitude }
    /// The peak amplitude of `levelDBFS`, muted or not (beeps, sweeps and MIDI notes play at it).
    public var levelAmplitude: Double { Decibels.amplitude(dbfs: levelDBFS) }

    public func estimatorConfiguration(sampleRateHz: Double) -> ToneEstimatorConfiguration {
        ToneEstimatorConfiguration(sampleRateHz: sampleRateHz, fftSize: fftSize, lowHz: lowHz,
                                   highHz: highHz ?? sampleRateHz / 2, snrMinDB: snrMinDB,
                                   maxTones: maxTones)
    }
}
