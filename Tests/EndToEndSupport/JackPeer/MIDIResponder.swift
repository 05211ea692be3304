import CJack
import ToneTestSupport

/// A `JackPeer` behaviour: a synth with a known MIDI-to-audio latency. Each
/// note-on on MIDI input 0 is answered on audio output 0 with a `RampBurst`
/// whose onset lies exactly `delayFrames` (integer or fractional) after the
/// note-on's frame, counted on the peer's own frame clock.
///
/// ```swift
/// let synth = MIDIResponder(delayFrames: 100.25)
/// let peer = try JackPeer(name: "synth", server: server.name, audioOut: ["out"], midiIn: ["midi_in"],
///                         process: synth.process)
/// ```
public final class MIDIResponder: @unchecked Sendable {
    // @unchecked Sendable: set up before the peer activates; afterwards only
    // the JACK thread touches the state (one peer per instance).
    public let delayFrames: Double
    public let burst: RampBurst
    /// Onsets of the answers still sounding or to come (a ring of `slots`), in the peer's frames.
    private let onsets: UnsafeMutablePointer<Double>
    private let slots = 16
    private var next = 0
    /// Frames the peer has processed before this period.
    private var clock = 0

    public init(delayFrames: Double, burst: RampBurst = RampBurst()) {
        self.delayFrames = delayFrames
        self.burst = burst
        onsets = .allocate(capacity: slots)
        onsets.initialize(repeating: -.infinity, count: slots)
    }

    deinit { onsets.deallocate() }

    /// JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        guard let output = cycle.audioOut(0) else { return }
        if let buffer = cycle.midiIn(0) {
            for index in 0..<jack_midi_get_event_count(buffer) {
                var event = jack_midi_event_t()
                guard jack_midi_event_get(&event, buffer, index) == 0, event.size == 3, let bytes = event.buffer,
                      bytes[0] & 0xF0 == 0x90, bytes[2] > 0 else { continue }
                onsets[next] = Double(clock + Int(event.time)) + delayFrames
                next = (next + 1) % slots
            }
        }
        for n in 0..<cycle.frames {
            let frame = Double(clock + n)
            var value: Float = 0
            for slot in 0..<slots { value += burst.value(framesSinceOnset: frame - onsets[slot]) }
            output[n] = value
        }
        clock += cycle.frames
    }
}
