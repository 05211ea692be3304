/// What `CableDemodulator` made of a recording: the message only when every
/// frame arrived and the whole message's length and CRC-32 match; otherwise
/// nil and the counts say why (a damaged frame counts as missing).
public struct CableReception: Sendable, Equatable {
    /// The message's bytes; nil unless every frame arrived intact.
    public let message: [UInt8]?
    /// The header, when it was read.
    public let header: CableHeader?
    /// Sample where the sync chirp starts.
    public let startSample: Int
    /// Frames whose CRC failed (their symbols were in the recording).
    public let damagedFrames: Int
    /// Frames whose symbols lie past the end of the recording.
    public let truncatedFrames: Int
    /// SNR per band measured on the training symbols (after equalization), dB.
    public let bandSNRdB: [Double]
    /// The whole message's CRC failed though every frame's passed.
    public let messageCRCFailed: Bool
    /// Message bytes in the frames that arrived intact (never delivered unless all did).
    public let intactBytes: Int
    /// The recording (or the signal) ended before the header symbol was in.
    public let endsBeforeHeader: Bool

    /// SNR per band on the frames that decoded (dB): each as sent (re-encoded)
    /// against how it was read where the timing predicted it, before a
    /// symbol's own timing was taken out. Below `bandSNRdB` where a path
    /// re-times the stream (zita-njbridge); empty when no frame decoded.
    public var dataSNRdB: [Double] = []

    /// The message bytes of the frames that arrived intact, when the message
    /// as a whole did not: each frame's payload where it lies in the message,
    /// its own CRC-32 and sequence number checked (a dropout costs the frames
    /// it touches; a session keeps the rest). Empty when the message arrived whole.
    public var intactPieces: [Piece] = []

    /// Of `damagedFrames`, those lost to a dropout rather than noise: a gap
    /// the input reported, energy gone (a mute), or the timing jumped (the
    /// cyclic prefixes lay elsewhere). A sender plans again for noise only.
    public var droppedOutFrames = 0

    /// The header did not decode and its energy, or one training symbol's, had gone (a dropout, not noise).
    public var headerLostToDropout = false

    /// Whether what was lost of it was lost to a dropout, not noise.
    public var lostOnlyToDropouts: Bool {
        guard header != nil else { return headerLostToDropout }
        return damagedFrames > 0 && droppedOutFrames == damagedFrames && truncatedFrames == 0
    }

    /// One intact frame's payload and where it lies in the message.
    public struct Piece: Sendable, Equatable {
        public let messageOffset: Int
        public let bytes: [UInt8]

        public init(messageOffset: Int, bytes: [UInt8]) {
            self.messageOffset = messageOffset
            self.bytes = bytes
        }
    }

    /// The SNR per band a sender should plan with: the training's, or the
    /// data's where lower (a probe's frame shows what re-timing costs).
    public var planningSNRdB: [Double] {
        guard dataSNRdB.count == bandSNRdB.count else { return bandSNRdB }
        return zip(bandSNRdB, dataSNRdB).map { min($0, $1) }
    }

    /// The bands' SNRs averaged (dB).
    public var meanSNRdB: Double { bandSNRdB.reduce(0, +) / Double(max(1, bandSNRdB.count)) }

    /// One line: what was received, or why nothing was delivered.
    public var summary: String {
        guard let header else {
            if endsBeforeHeader {
                return "cable: the recording ends before the header (sync found at sample \(startSample)); nothing delivered"
            }
            return "cable: no header could be read (sync found at sample \(startSample)); nothing delivered"
        }
        if message != nil {
            return "cable: \(header.messageBytes) bytes in \(header.frameCount) frame(s), all intact"
        }
        if messageCRCFailed {
            return "cable: every frame arrived but the message's CRC-32 does not match; nothing delivered"
        }
        let missing = damagedFrames + truncatedFrames
        return "cable: \(missing) of \(header.frameCount) frame(s) missing (\(damagedFrames) damaged, "
            + "\(truncatedFrames) cut off by the end of the recording), \(intactBytes) of \(header.messageBytes) bytes intact; "
            + "nothing delivered"
    }
}
