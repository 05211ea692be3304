/// One short MIDI message (1 to 3 bytes) at frame `time` of a period, as the
/// process callback hands it to a render function.
///
/// Its layout is the C bridge's `tn_midi_event` (three fields in this order,
/// no padding), so a render function reads the bridge's events in place;
/// `ProcessBridge` checks the layout when it is made.
public struct MIDIEvent: Sendable {
    /// Frame of the period the message arrived at.
    public var time: UInt32
    /// Bytes of the message that are used (1…3).
    public var size: UInt32
    /// Status byte, then up to two data bytes; unused bytes are 0.
    public var data: (UInt8, UInt8, UInt8, UInt8)

    public init(time: UInt32, size: UInt32, data: (UInt8, UInt8, UInt8, UInt8)) {
        self.time = time
        self.size = size
        self.data = data
    }
}
