/// Something that slides a window over a stream and reports every hop: the
/// tone analyzer (`--mode tone`) or the pitch analyzer (`--mode pitch`). The
/// file command and the live worker drive either one the same way.
///
/// Worker only.
public protocol StreamAnalyzer: AnyObject {
    /// Feeds samples; `report` is called once per completed hop, in order.
    func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void)
    /// The stream lost `frames` samples.
    func skip(frames: Int)
    /// Frames in one analysed window (a report covers the last this many).
    var windowFrames: Int { get }
}

extension ToneAnalyzer: StreamAnalyzer {}
