import ToneDSP

/// The modem receiver as a stream analyzer, so the live worker drives it like
/// the tone and pitch analyzers: `process` pushes samples, `skip` marks an
/// input gap (a frame that spans it is dropped, never delivered damaged).
/// It never produces tone reports; the messages it finds wait in `takeEvents`.
///
/// Worker only.
public final class ModemStreamAnalyzer: StreamAnalyzer {
    /// The tone profiles' receiver; nil when only the cable profile is listened for.
    public let receiver: ModemReceiver?
    /// The cable profile's receiver, when it is listened for.
    public let cable: CableStreamReceiver?
    private var events: [ModemEvent] = []
    /// No tone reports, so no window they would cover.
    public var windowFrames: Int { 0 }

    /// - Parameters:
    ///   - profiles: the tone profiles to listen for (nil: every one the rate allows; empty: none).
    ///   - cable: listen for the cable profile too.
    public init(sampleRateHz: Double, profiles: [ModemProfile]? = nil, cable: Bool = false) throws {
        receiver = profiles?.isEmpty == true ? nil : try ModemReceiver(sampleRateHz: sampleRateHz, profiles: profiles)
        self.cable = cable ? try CableStreamReceiver(sampleRateHz: sampleRateHz) : nil
    }

    public func process(_ input: UnsafeBufferPointer<Float>, report: (ToneReport) -> Void) {
        if let receiver { events += receiver.push(input) }
        if let cable { events += cable.push(input).map { Self.event($0, cable) } }
    }

    public func skip(frames: Int) {
        receiver?.skip(frames: frames)
        if let cable { cable.skip(frames: frames) }
    }

    /// The messages (and incomplete messages) found since the last call.
    public func takeEvents() -> [ModemEvent] {
        if let cable { events += cable.takeEnded().map { Self.event($0, cable) } }
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    private static func event(_ reception: CableReception, _ cable: CableStreamReceiver) -> ModemEvent {
        .cable(reception, timeSeconds: Double(reception.startSample) / cable.geometry.sampleRateHz)
    }
}
