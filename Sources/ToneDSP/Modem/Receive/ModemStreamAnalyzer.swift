/// The modem receiver as a stream analyzer, so the live worker drives it like
/// the tone and pitch analyzers: `process` pushes samples, `skip` marks an
/// input gap (a frame that spans it is dropped, never delivered damaged).
/// It never produces tone reports; the messages it finds wait in `takeEvents`.
///
/// Worker only.
public final class ModemStreamAnalyzer: StreamAnalyzer {
    public let receiver: ModemReceiver
    private var events: [ModemEvent] = []
    /// No tone reports, so no window they would cover.
    public var windowFrames: Int { 0 }

    /// - Parameter profiles: the profiles to listen for (nil: every one the rate allows).
    public init(sampleRateHz: Double, profiles: [ModemProfile]? = nil) throws {
        receiver = try ModemReceiver(sampleRateHz: sampleRateHz, profiles: profiles)
    }

    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        events += receiver.push(input)
    }

    public func skip(frames: Int) {
        receiver.skip(frames: frames)
    }

    /// The messages (and incomplete messages) found since the last call.
    public func takeEvents() -> [ModemEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
}
