/// One 3-byte MIDI message `measure` sends at a frame of its stimulus
/// (frame 0: the stimulus's first frame).
public struct TimedMIDIMessage: Sendable, Equatable {
    public var frame: Int
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8

    public init(frame: Int, status: UInt8, data1: UInt8, data2: UInt8) {
        self.frame = frame
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }
}
