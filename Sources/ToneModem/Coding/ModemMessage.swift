/// A message the receiver decoded: every frame arrived and passed its CRC-32.
public struct ModemMessage: Sendable, Equatable {
    public let bytes: [UInt8]
    /// Stream time of the first frame's preamble, in seconds from the first sample pushed.
    public let timeSeconds: Double
    public let profile: ModemProfile
    /// In-band SNR on the data subcarriers, averaged over the frames (dB).
    public let snrDB: Double
    public let messageID: UInt16
    public let frameCount: Int

    /// The bytes as text when they are valid UTF-8.
    public var text: String? {
        String(validating: bytes, as: UTF8.self)
    }
}

/// A message of which some frames arrived but at least one never did.
/// Its bytes are never handed out.
public struct IncompleteModemMessage: Sendable, Equatable {
    public let messageID: UInt16
    public let timeSeconds: Double
    public let profile: ModemProfile
    public let receivedFrames: Int
    public let frameCount: Int
}

/// What the receiver reports.
public enum ModemEvent: Sendable, Equatable {
    case message(ModemMessage)
    case incomplete(IncompleteModemMessage)
    /// A cable transmission that ended: its message when it arrived whole,
    /// else the counts of what went missing. Stream time of its chirp.
    case cable(CableReception, timeSeconds: Double)

    /// The bytes of a message delivered whole; nil for one that was not.
    public var deliveredBytes: [UInt8]? {
        switch self {
        case .message(let message): message.bytes
        case .incomplete: nil
        case .cable(let reception, _): reception.message
        }
    }

    /// Stream time of the message's start, in seconds.
    public var timeSeconds: Double {
        switch self {
        case .message(let message): message.timeSeconds
        case .incomplete(let message): message.timeSeconds
        case .cable(_, let seconds): seconds
        }
    }
}
