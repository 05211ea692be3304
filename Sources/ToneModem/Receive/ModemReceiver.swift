/// The streaming modem receiver: push samples in chunks of any size, get
/// messages back.
///
/// Finds preambles of every profile it listens for, decodes each frame once
/// all its samples have arrived, drops frames that fail their CRC or span a
/// gap in the input, and reassembles multi-frame messages.
///
/// Worker only: one instance belongs to one thread. Buffers are allocated in
/// `init`; `push` allocates only the events it returns.
public final class ModemReceiver {
    public let sampleRateHz: Double
    public let profiles: [ModemProfile]
    /// Largest chunk `push` processes at once; longer chunks are split.
    static let maximumChunkFrames = 4096

    private struct Lane {
        let detector: PreambleDetector
        let demodulator: FrameDemodulator
        /// Stream position up to which this profile's last decoded frame reaches;
        /// later detections inside it (echoes) are ignored.
        var busyUntil: Double = -.infinity
    }

    private var lanes: [Lane]
    private let history: SampleHistory
    private var pending: [PreambleCandidate] = []
    private var reassembler: MessageReassembler
    /// Stream position of the next sample pushed.
    public private(set) var streamPosition = 0
    /// Frames decoded and delivered to reassembly (statistics).
    public private(set) var framesDecoded = 0
    /// Preambles whose frame failed to decode (CRC or header).
    public private(set) var framesRejected = 0

    public enum SetupError: Error, CustomStringConvertible {
        case invalid(String)
        public var description: String {
            switch self { case .invalid(let reason): reason }
        }
    }

    /// - Parameters:
    ///   - profiles: the profiles to listen for (default: all that fit the sample rate).
    public init(sampleRateHz: Double, profiles: [ModemProfile]? = nil) throws {
        let chosen = profiles ?? ModemProfile.allCases.filter { $0.parameters.problem(sampleRateHz: sampleRateHz) == nil }
        guard !chosen.isEmpty else {
            throw SetupError.invalid("no modem profile fits a sample rate of \(sampleRateHz) Hz")
        }
        var lanes: [Lane] = []
        var longestFrames = 0
        for profile in chosen {
            if let problem = profile.parameters.problem(sampleRateHz: sampleRateHz) { throw SetupError.invalid(problem) }
            guard let detector = PreambleDetector(parameters: profile.parameters, sampleRateHz: sampleRateHz) else {
                throw SetupError.invalid("cannot plan the FFTs for profile \(profile.rawValue)")
            }
            let demodulator = FrameDemodulator(parameters: profile.parameters, sampleRateHz: sampleRateHz)
            longestFrames = max(longestFrames, demodulator.spanFrames(clockOffset: -PreambleDetector.maximumClockOffset)
                                + 2 * detector.fftSize)
            lanes.append(Lane(detector: detector, demodulator: demodulator))
        }
        self.sampleRateHz = sampleRateHz
        self.profiles = chosen
        self.lanes = lanes
        history = SampleHistory(capacity: 2 * (longestFrames + 2 * Self.maximumChunkFrames))
        let longestFrameSeconds = chosen.map { $0.parameters.frameSeconds }.max() ?? 1
        reassembler = MessageReassembler(timeoutSeconds: 4 * longestFrameSeconds + 1)
    }

    /// Processes the next samples of the stream.
    public func push(_ samples: UnsafeBufferPointer<Float>) -> [ModemEvent] {
        var events: [ModemEvent] = []
        var offset = 0
        while offset < samples.count {
            let length = min(Self.maximumChunkFrames, samples.count - offset)
            let chunk = UnsafeBufferPointer(rebasing: samples[offset..<(offset + length)])
            history.append(chunk, keepFrom: oldestNeededPosition)
            streamPosition += length
            offset += length
            process(into: &events)
        }
        return events
    }

    public func push(_ samples: [Float]) -> [ModemEvent] {
        samples.withUnsafeBufferPointer { push($0) }
    }

    /// The input lost `frames` samples (an xrun, a dropped period): no frame
    /// that spans the gap is decoded, and a multi-frame message missing a frame
    /// will be reported incomplete.
    public func skip(frames: Int) {
        guard frames > 0 else { return }
        streamPosition += frames
        history.reset(at: streamPosition)
        pending.removeAll()
        for index in lanes.indices { lanes[index].detector.reset(at: streamPosition) }
    }

    /// End of input: decodes what is still pending and reports every
    /// unfinished multi-frame message as incomplete.
    public func finish() -> [ModemEvent] {
        let tailFrames = (lanes.map { $0.demodulator.spanFrames(clockOffset: -PreambleDetector.maximumClockOffset)
                                      + 2 * $0.detector.fftSize }.max() ?? 0)
        let silence = [Float](repeating: 0, count: Self.maximumChunkFrames)
        var events: [ModemEvent] = []
        var pushed = 0
        while pushed < tailFrames {
            events += push(silence)
            pushed += silence.count
        }
        return events + reassembler.flush()
    }

    private var oldestNeededPosition: Int {
        var oldest = streamPosition
        // A frame found later may need samples from before its preamble (`leadFrames`).
        for lane in lanes { oldest = min(oldest, lane.detector.oldestNeededPosition - lane.demodulator.leadFrames) }
        let lead = lanes.map { $0.demodulator.leadFrames }.max() ?? 0
        for candidate in pending { oldest = min(oldest, Int(candidate.startPosition.rounded(.down)) - 64 - lead) }
        return oldest
    }

    private func process(into events: inout [ModemEvent]) {
        var found: [PreambleCandidate] = []
        for lane in lanes { lane.detector.advance(history: history, into: &found) }
        if !found.isEmpty {
            pending += found
            pending.sort { $0.startPosition < $1.startPosition }
        }
        var remaining: [PreambleCandidate] = []
        for candidate in pending {
            guard let laneIndex = lanes.firstIndex(where: { $0.detector.parameters.profile == candidate.profile }) else { continue }
            let demodulator = lanes[laneIndex].demodulator
            if candidate.startPosition < lanes[laneIndex].busyUntil { continue }
            let first = Int(candidate.startPosition.rounded(.down))
            let span = demodulator.spanFrames(clockOffset: candidate.clockOffset)
            // Wait for the frame and some slack (other clock-offset readings reach a little further).
            if first + span + 64 > history.endPosition {
                remaining.append(candidate)
                continue
            }
            guard first - demodulator.leadFrames >= history.startPosition else { continue }
            var result: FrameDemodulator.Result?
            for reading in candidate.alternatives {
                let start = Int(reading.startPosition.rounded(.down)) - demodulator.leadFrames
                let length = demodulator.spanFrames(clockOffset: reading.clockOffset) + demodulator.leadFrames
                guard let samples = history.pointer(at: start, length: length) else { continue }
                result = demodulator.decode(samples, origin: start, count: length, startPosition: reading.startPosition,
                                            clockOffset: reading.clockOffset, strength: reading.strength)
                if result != nil { break }
            }
            if let result {
                framesDecoded += 1
                lanes[laneIndex].busyUntil = candidate.startPosition + Double(span) / 2
                events += reassembler.add(result.frame, timeSeconds: candidate.startPosition / sampleRateHz,
                                          profile: candidate.profile, snrDB: result.snrDB)
            } else {
                framesRejected += 1
            }
        }
        pending = remaining
        events += reassembler.expire(nowSeconds: Double(streamPosition) / sampleRateHz)
    }
}
