/// Puts a file sent as cable segments back together on the receiving side
/// (`receive --profile cable`). It follows one transfer at a time (the
/// first segment it hears chooses it), keeps every byte range that arrived
/// intact, and hands the file out only when every byte is in. What it could
/// not use is counted, never delivered: transmissions lost or damaged on the
/// way, segments of another transfer (a second sender), and a transfer heard
/// from its middle (a receiver started late) simply waits for the ranges it missed.
///
/// A value: whoever holds it owns it.
public struct CableTransferAssembler: Sendable {
    public private(set) var transferID: UInt32?
    public private(set) var totalBytes = 0
    private var data: [UInt8] = []
    /// Byte ranges received, kept sorted and merged.
    private(set) var received: [Range<Int>] = []
    /// Transmissions heard whose bytes could not be used (damaged, cut off).
    public private(set) var lostSegments = 0
    /// Segments of another transfer heard while this one was followed.
    public private(set) var foreignSegments = 0
    /// Segments that arrived twice (a resend of one already in).
    public private(set) var duplicateSegments = 0
    /// Segments whose bytes were added.
    public private(set) var addedSegments = 0
    /// Of the lost transmissions, those cut off (the signal or the recording ended inside them).
    public private(set) var cutOffSegments = 0
    /// The first segment taken's byte offset, and the transmissions lost before it.
    private(set) var firstOffset: Int?
    private(set) var lostBeforeFirst = 0

    public init() {}

    public var receivedBytes: Int { received.reduce(0) { $0 + $1.count } }
    public var isComplete: Bool { transferID != nil && receivedBytes == totalBytes }

    /// What a segment did.
    public enum Outcome: Sendable, Equatable {
        /// New bytes; `complete` when the file is now whole.
        case added(complete: Bool)
        case duplicate
        /// Of another transfer: not used.
        case foreign
    }

    /// Takes a segment that arrived intact.
    public mutating func take(_ segment: CableSegment) -> Outcome {
        if transferID == nil {
            transferID = segment.transferID
            totalBytes = segment.totalBytes
            data = [UInt8](repeating: 0, count: segment.totalBytes)
            firstOffset = segment.offset
            lostBeforeFirst = lostSegments
        }
        guard segment.transferID == transferID, segment.totalBytes == totalBytes else {
            foreignSegments += 1
            return .foreign
        }
        let range = segment.offset..<(segment.offset + segment.data.count)
        if received.contains(where: { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound }) {
            duplicateSegments += 1
            return .duplicate
        }
        data.replaceSubrange(range, with: segment.data)
        received = Self.merged(received + [range])
        addedSegments += 1
        return .added(complete: isComplete)
    }

    /// Counts a transmission that arrived but could not be used; `cutOff`: the signal ended inside it.
    public mutating func countLost(cutOff: Bool = false) {
        lostSegments += 1
        if cutOff { cutOffSegments += 1 }
    }

    /// The whole file; nil until every byte is in.
    public var file: [UInt8]? { isComplete ? data : nil }

    /// Byte ranges still missing.
    public var missing: [Range<Int>] {
        var gaps: [Range<Int>] = []
        var position = 0
        for range in received {
            if range.lowerBound > position { gaps.append(position..<range.lowerBound) }
            position = range.upperBound
        }
        if position < totalBytes { gaps.append(position..<totalBytes) }
        return gaps
    }

    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, last.upperBound >= range.lowerBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
