/// The sending side of a session (`send --profile cable` with a return
/// path), as a pure state machine: no audio, no clock of its own. The
/// driver (the command) turns its actions into transmissions, tells it when
/// they have left (`transmitted`), what came back (`heard`) and the time (`tick`).
///
/// probe → the receiver's answer gives the SNR per band → the plan (QAM per
/// band, code rate) with a margin → every segment → wait for the answer →
/// resend the segments it says are missing → … → the answer carries the
/// file's digest: it must equal ours, and the receiver is told it may stop.
/// An answer that does not come is asked for again (`maximumPolls` times),
/// then the session fails with one line. A round that gains no byte plans
/// again from the answer's SNR with `stallMarginDB` more margin; after
/// `maximumStalledRounds` such rounds the session fails with one line. A
/// round that lost segments, its answer's SNR below the planned one, plans
/// again from it (the data of a segment shows a re-timing's damage better
/// than the probe's one frame).
public struct CableSessionSender: Sendable {
    public enum Action: Sendable, Equatable {
        /// Send this as one cable transmission, in the current plan.
        case transmit(CableSessionMessage)
        /// Transmit from now on with this plan (chosen from the probe's answer).
        case usePlan(CablePlan)
        /// The receiver has the whole file and its digest matches ours.
        case confirmed
        /// The session gave up; one line why.
        case failed(String)
    }

    public enum Phase: Sendable, Equatable { case probing, sending, waiting, confirmed, failed }

    public let transferID: UInt32
    public let file: [UInt8]
    public let digest: [UInt8]
    /// Carriers of the geometry in use (what a plan's frame holds depends on it).
    public let carrierCount: Int
    /// dB taken off every band's measured SNR before the plan is chosen.
    public var marginDB = 3.0
    /// How long to wait for an answer after the last transmission left.
    public var answerTimeoutSeconds = 4.0
    /// Probes or polls sent again for an answer that does not come, before giving up.
    public var maximumPolls = 8
    /// dB of margin added for each round that gained no byte.
    public var stallMarginDB = 6.0
    /// dB an answer's SNR must fall below the planned one in some band for a round that lost segments to plan again.
    static let replanDropDB = 1.0
    /// Rounds in a row that gain no byte, before giving up.
    public var maximumStalledRounds = 4
    /// Rounds in a row that gain no byte, every loss a dropout, before giving up.
    public var maximumDroppedRounds = 8

    public private(set) var phase = Phase.probing
    public private(set) var plan = CablePlan.fileDefault
    public private(set) var segments: [Range<Int>] = []
    /// Bytes the receiver said it has, from its last answer.
    public private(set) var confirmedBytes = 0
    /// Segments sent again after an answer said they were missing.
    public private(set) var resentSegments = 0
    /// File bytes one segment carries under `plan`.
    public private(set) var segmentDataBytes = 1
    private var polls = 0
    /// How long the last answer took after what it answered had left (s); when that left; the first unanswered wait's start.
    private var answerLatency: Double?
    private var leftAt: Double?
    private var unansweredSince: Double?
    /// The wait under way is the quick one; the quick poll of this wait has gone.
    private var shortWait = false
    private var shortPollSpent = false
    /// The least wait for an answer once one has come (s): a debug-built receiver's decoding lag at a round's end.
    static let minimumAnswerTimeoutSeconds = 1.5
    private var deadline: Double?
    private var stalledRounds = 0
    /// Rounds in a row that gained no byte, every loss a dropout.
    private var droppedRounds = 0
    /// The SNR per band the plan was chosen for (before the margin).
    private var plannedSNRdB: [Double] = []
    /// Bytes the last answer said were missing.
    private var missingBytes: Int
    /// What the answer that started the round under way said was missing (nil in the first round).
    private var roundMissing: [Range<Int>]?
    /// An answer heard before `transmitted`: taken then.
    private var earlyAnswer: CableAcknowledgement?

    public init(transferID: UInt32, file: [UInt8], digest: [UInt8], carrierCount: Int) {
        precondition(!file.isEmpty)
        self.transferID = transferID
        self.file = file
        self.digest = digest
        self.carrierCount = carrierCount
        missingBytes = file.count
    }

    /// The first actions: the probe.
    public mutating func start() -> [Action] {
        phase = .probing
        return [.transmit(.probe(transferID: transferID))]
    }

    /// Everything handed out so far has left the port at `now` (seconds): the
    /// answer is awaited from here, or an answer already heard while sending is taken now.
    public mutating func transmitted(now: Double) -> [Action] {
        if phase == .sending { phase = .waiting }
        if phase == .waiting || phase == .probing {
            // Once an answer has come, the first poll of a wait goes after 3 times as long as it took (at least
            // `minimumAnswerTimeoutSeconds`), uncounted: a round whose last segment a dropout took draws no answer.
            let quick = shortPollSpent ? nil
                : answerLatency.map { min(answerTimeoutSeconds, max(Self.minimumAnswerTimeoutSeconds, 3 * $0)) }
            shortWait = quick != nil
            deadline = now + (quick ?? answerTimeoutSeconds)
            leftAt = now
            unansweredSince = unansweredSince ?? now
        }
        guard let early = earlyAnswer else { return [] }
        earlyAnswer = nil
        return heard(.acknowledgement(early), now: now)
    }

    /// A session message heard on the return path at `now`. An answer heard
    /// before the transmissions handed out have all left (the path is quick,
    /// or in two-way mode the port was still playing answers of our own) is
    /// kept and taken at `transmitted`; one listing exactly what the round
    /// under way resends is the answer that started it heard again (a poll's
    /// answer after a late one), and is dropped.
    public mutating func heard(_ message: CableSessionMessage, now: Double) -> [Action] {
        guard case .acknowledgement(let answer) = message, answer.transferID == transferID else { return [] }
        if phase == .probing || phase == .waiting, deadline != nil, let leftAt {
            answerLatency = now - leftAt
            unansweredSince = nil
            shortPollSpent = false
        }
        switch phase {
        case .probing:
            guard deadline != nil else {
                earlyAnswer = answer
                return []
            }
            choosePlan(answer.bandSNRdB)
            segments = CableSegment.ranges(totalBytes: file.count, dataBytes: segmentDataBytes)
            polls = 0
            deadline = nil
            phase = .sending
            return [.usePlan(plan)] + segments.indices.map { .transmit(segment($0)) }
        case .waiting:
            guard answer.totalBytes == file.count else { return [] }
            deadline = nil
            let missing = answer.missing.reduce(0) { $0 + $1.count }
            confirmedBytes = file.count - missing
            if let theirs = answer.digest {
                confirmedBytes = file.count
                phase = theirs == digest ? .confirmed : .failed
                return theirs == digest ? [.transmit(.finished(transferID: transferID)), .confirmed]
                    : [.failed("the receiver's SHA-256 of the file differs from the sender's; the transfer is not confirmed")]
            }
            // An answer listing nothing missing but no digest: ask again (counted as a poll: bounded).
            guard missing > 0 else {
                deadline = now
                return tick(now: now)
            }
            polls = 0
            var actions: [Action] = []
            if missing >= missingBytes, answer.lossesWereDropouts {
                // Lost to dropouts (energy gone, timing jumped), not noise: the same plan again, bounded.
                droppedRounds += 1
                guard droppedRounds < maximumDroppedRounds else {
                    phase = .failed
                    return [.failed("the receiver lost every segment of \(droppedRounds) rounds in a row to dropouts (the signal gone "
                                    + "or its timing jumped; it has \(confirmedBytes) of \(file.count) bytes); the path drops out "
                                    + "more often than a segment lasts")]
                }
            } else if missing >= missingBytes {
                droppedRounds = 0
                stalledRounds += 1
                guard stalledRounds < maximumStalledRounds else {
                    phase = .failed
                    return [.failed("the receiver lost every segment of \(stalledRounds) rounds in a row (it has \(confirmedBytes) "
                                    + "of \(file.count) bytes); the path does not carry even the most robust plan")]
                }
                marginDB += stallMarginDB
                choosePlan(answer.bandSNRdB)
                actions.append(.usePlan(plan))
            } else {
                stalledRounds = 0
                droppedRounds = 0
                // The answer's SNR (what its last segment's data showed) fell below what the plan was chosen
                // for: a path that re-times the stream damages more than the probe saw.
                if zip(answer.bandSNRdB, plannedSNRdB).contains(where: { $0 < $1 - Self.replanDropDB }) {
                    choosePlan(answer.bandSNRdB)
                    actions.append(.usePlan(plan))
                }
            }
            missingBytes = missing
            // The missing bytes cut afresh (the plan may have changed); the
            // ranges an answer holds are the first ones, the rest follow next round.
            roundMissing = answer.missing
            segments = answer.missing.flatMap { CableSegment.ranges(covering: $0, dataBytes: segmentDataBytes) }
            resentSegments += segments.count
            phase = .sending
            actions += segments.indices.map { .transmit(segment($0)) }
            // A round that does not end with the file's last byte draws no answer of itself: ask for one.
            if segments.last?.upperBound != file.count { actions.append(.transmit(.poll(transferID: transferID, totalBytes: file.count))) }
            return actions
        case .sending:
            if answer.totalBytes == file.count, answer.digest != nil || answer.missing != roundMissing { earlyAnswer = answer }
            return []
        case .confirmed, .failed:
            return []
        }
    }

    /// The time is `now`: an answer overdue is asked for again, or the session fails.
    public mutating func tick(now: Double) -> [Action] {
        guard phase == .probing || phase == .waiting, let due = deadline, now >= due else { return [] }
        deadline = nil
        if shortWait {
            shortWait = false
            shortPollSpent = true
            return [phase == .probing ? .transmit(.probe(transferID: transferID))
                        : .transmit(.poll(transferID: transferID, totalBytes: file.count))]
        }
        guard polls < maximumPolls else {
            phase = .failed
            let waited = answerLatency == nil ? Double(maximumPolls + 1) * answerTimeoutSeconds : now - (unansweredSince ?? now)
            return [.failed(String(format: "no answer from the receiver within %.0f s (%d tries); ", waited, maximumPolls + 1 + (shortPollSpent ? 1 : 0))
                            + (answerLatency != nil ? "it had answered before, with \(confirmedBytes) of \(file.count) bytes"
                               : "is a return path connected?"))]
        }
        polls += 1
        if phase == .probing { return [.transmit(.probe(transferID: transferID))] }
        return [.transmit(.poll(transferID: transferID, totalBytes: file.count))]
    }

    private func segment(_ index: Int) -> CableSessionMessage {
        .segment(CableSegment(transferID: transferID, offset: segments[index].lowerBound, totalBytes: file.count,
                              data: file[segments[index]]))
    }

    /// The plan for the SNR per band an answer reports, less `marginDB`.
    private mutating func choosePlan(_ bandSNRdB: [Double]) {
        plannedSNRdB = bandSNRdB
        plan = CablePlan(bandSNRdB: bandSNRdB.map { $0 - marginDB })
        segmentDataBytes = CableSegment.dataBytes(plan: plan, carrierCount: carrierCount) ?? 1
    }
}
