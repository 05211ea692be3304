/// Collects frames into messages. A message is delivered only when every frame
/// arrived; one whose frames stop coming is reported as incomplete.
///
/// Worker only.
public struct MessageReassembler {
    private struct Partial {
        var frames: [[UInt8]?]
        var received: Int
        let timeSeconds: Double
        let profile: ModemProfile
        var snrSumDB: Double
        var lastSeenSeconds: Double
    }

    private var partials: [UInt16: Partial] = [:]
    /// A partial message is given up when no frame of it arrived for this long.
    public let timeoutSeconds: Double

    public init(timeoutSeconds: Double = 3) {
        self.timeoutSeconds = timeoutSeconds
    }

    /// Adds a frame that passed its CRC.
    public mutating func add(_ frame: ModemFrame, timeSeconds: Double, profile: ModemProfile, snrDB: Double) -> [ModemEvent] {
        var events: [ModemEvent] = []
        if let existing = partials[frame.messageID], existing.frames.count != frame.count || existing.profile != profile {
            events.append(.incomplete(incomplete(frame.messageID, existing)))
            partials[frame.messageID] = nil
        }
        var partial = partials[frame.messageID]
            ?? Partial(frames: Array(repeating: nil, count: frame.count), received: 0, timeSeconds: timeSeconds,
                       profile: profile, snrSumDB: 0, lastSeenSeconds: timeSeconds)
        if partial.frames[frame.index] == nil {
            partial.frames[frame.index] = frame.payload
            partial.received += 1
            partial.snrSumDB += snrDB
        }
        partial.lastSeenSeconds = timeSeconds
        if partial.received == frame.count {
            partials[frame.messageID] = nil
            let bytes = partial.frames.flatMap { $0 ?? [] }
            events.append(.message(ModemMessage(bytes: bytes, timeSeconds: partial.timeSeconds, profile: profile,
                                                 snrDB: partial.snrSumDB / Double(partial.received),
                                                 messageID: frame.messageID, frameCount: frame.count)))
        } else {
            partials[frame.messageID] = partial
        }
        return events
    }

    /// Reports messages that have waited too long (stream time `nowSeconds`).
    public mutating func expire(nowSeconds: Double) -> [ModemEvent] {
        let stale = partials.filter { nowSeconds - $0.value.lastSeenSeconds > timeoutSeconds }
        for id in stale.keys { partials[id] = nil }
        return stale.sorted { $0.value.timeSeconds < $1.value.timeSeconds }.map { .incomplete(incomplete($0.key, $0.value)) }
    }

    /// Reports every partial message (end of input).
    public mutating func flush() -> [ModemEvent] {
        expire(nowSeconds: .infinity)
    }

    private func incomplete(_ id: UInt16, _ partial: Partial) -> IncompleteModemMessage {
        IncompleteModemMessage(messageID: id, timeSeconds: partial.timeSeconds, profile: partial.profile,
                               receivedFrames: partial.received, frameCount: partial.frames.count)
    }
}
