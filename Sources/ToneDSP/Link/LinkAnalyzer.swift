/// Turns the stream that comes back from a link into `LinkReading`s, one per
/// probe period, and keeps what the summary needs: latency changes and
/// dropout bursts with their times.
///
/// Feed it what the capture delivers, in order, with the stream frame of the
/// first sample (for a round trip, the frame count the probe was played on).
/// A discontinuity (a capture gap) starts a new window there.
///
/// Worker thread only.
public final class LinkAnalyzer {
    /// A stretch of broken blocks in a row.
    public struct Dropout: Sendable, Equatable {
        public var startSeconds: Double
        public var durationSeconds: Double
        public init(startSeconds: Double, durationSeconds: Double) {
            self.startSeconds = startSeconds
            self.durationSeconds = durationSeconds
        }
    }

    /// A step of the latency (a bridge resync, a new network delay).
    public struct LatencyChange: Sendable, Equatable {
        public var timeSeconds: Double
        public var fromFrames: Double
        public var toFrames: Double
        public init(timeSeconds: Double, fromFrames: Double, toFrames: Double) {
            self.timeSeconds = timeSeconds
            self.fromFrames = fromFrames
            self.toFrames = toFrames
        }
    }

    /// Broken stretches closer than this are one dropout.
    public static let mergeSeconds = 0.05

    public let estimator: LinkEstimator
    /// Unwrap the latency across readings (one way: the delay walks with the
    /// clock drift and passes the period boundary); a round trip keeps it modulo the period.
    public let unwraps: Bool
    /// A reading this far from the one before is a change.
    public let changeThresholdFrames: Double

    public private(set) var readings: [LinkReading] = []
    public private(set) var dropouts: [Dropout] = []
    public private(set) var changes: [LatencyChange] = []

    private var window: [Float]
    private var windowStartFrame = 0
    private var firstFrame: Int?
    private var openDropoutStart: Double?
    private var heardProbe = false
    private var stableLatency: Double?   // the last reading with the probe (round trip)
    /// One way: frames of delay gained per frame, from the last two readings.
    private var driftFramesPerFrame = 0.0
    /// One way: the first period, kept until the second gives the drift to read it with.
    private var firstWindow: (samples: [Float], startFrame: Int, endSeconds: Double)?

    public init(probe: LinkProbe, unwraps: Bool, changeThresholdFrames: Double = 1) {
        estimator = LinkEstimator(probe: probe)
        self.unwraps = unwraps
        self.changeThresholdFrames = changeThresholdFrames
        window = []
        window.reserveCapacity(probe.periodFrames)
    }

    private var sampleRateHz: Double { estimator.probe.sampleRateHz }

    /// Appends frames that start at stream frame `startFrame`.
    /// - Returns: the readings completed by them (usually none or one).
    @discardableResult
    public func append(_ frames: UnsafeBufferPointer<Float>, startFrame: Int) -> [LinkReading] {
        if firstFrame == nil { firstFrame = startFrame }
        if window.isEmpty || windowStartFrame + window.count != startFrame {
            window.removeAll(keepingCapacity: true)
            windowStartFrame = startFrame
        }
        var completed: [LinkReading] = []
        var index = 0
        let period = estimator.probe.periodFrames
        while index < frames.count {
            let take = min(period - window.count, frames.count - index)
            window.append(contentsOf: frames[index..<(index + take)])
            index += take
            if window.count == period {
                completed.append(contentsOf: finishWindow())
                windowStartFrame += period
                window.removeAll(keepingCapacity: true)
            }
        }
        return completed
    }

    private func finishWindow() -> [LinkReading] {
        let endSeconds = Double(windowStartFrame + window.count - (firstFrame ?? 0)) / sampleRateHz
        guard unwraps else { return [record(read(window, windowStartFrame, endSeconds))] }
        guard let first = firstWindow else {
            firstWindow = (window, windowStartFrame, endSeconds)
            return []
        }
        if readings.isEmpty {
            // The second period: the drift from the two, then both read with it.
            let earlier = read(first.samples, first.startFrame, first.endSeconds)
            let later = read(window, windowStartFrame, endSeconds)
            driftFramesPerFrame = wrapped(later.latencyFrames - earlier.latencyFrames)
                / Double(windowStartFrame - first.startFrame)
            return [record(read(first.samples, first.startFrame, first.endSeconds)),
                    record(read(window, windowStartFrame, endSeconds))]
        }
        return [record(read(window, windowStartFrame, endSeconds))]
    }

    private func read(_ samples: [Float], _ startFrame: Int, _ endSeconds: Double) -> LinkReading {
        // Where the last reading heard puts this one, by the drift.
        let expected = readings.last(where: { $0.hasProbe }).map { last in
            let period = Double(estimator.probe.periodFrames)
            let frames = (endSeconds - last.timeSeconds) * sampleRateHz
            let ahead = last.latencyFrames + driftFramesPerFrame * frames
            return ahead - period * (ahead / period).rounded(.down)
        }
        return samples.withUnsafeBufferPointer {
            estimator.read($0, startFrame: startFrame, timeSeconds: endSeconds, driftFramesPerFrame: driftFramesPerFrame,
                           expectedLatencyFrames: expected)
        }
    }

    /// A step of delay, folded into ±half a period.
    private func wrapped(_ step: Double) -> Double {
        let period = Double(estimator.probe.periodFrames)
        return step - period * (step / period).rounded()
    }

    /// Unwraps (one way), follows the drift, tracks dropouts and changes, keeps the reading.
    private func record(_ read: LinkReading) -> LinkReading {
        var reading = read
        let periodSeconds = Double(estimator.probe.periodFrames) / sampleRateHz
        // Heard (gain above −40 dB) even where the model fits badly: that is
        // when the delay moves fastest, and the drift must follow it.
        if let last = readings.last(where: { $0.gainDB > -40 }), reading.gainDB > -40 {
            if unwraps {
                reading.latencyFrames = last.latencyFrames + wrapped(reading.latencyFrames - last.latencyFrames)
            }
            // Followed in both modes: a round trip through two resamplers
            // wanders too, by frames a second when their loops hunt.
            let frames = (reading.timeSeconds - last.timeSeconds) * sampleRateHz
            driftFramesPerFrame = wrapped(reading.latencyFrames - last.latencyFrames) / frames
        }
        trackDropouts(reading, windowStartSeconds: reading.timeSeconds - periodSeconds)
        if reading.hasProbe { trackChange(reading) }
        readings.append(reading)
        return reading
    }

    private func trackDropouts(_ reading: LinkReading, windowStartSeconds: Double) {
        let blockSeconds = Double(LinkEstimator.blockFrames) / sampleRateHz
        // A period without the probe at all is one long broken stretch.
        let blocks = reading.hasProbe ? reading.badBlocks
            : [Bool](repeating: true, count: estimator.probe.periodFrames / LinkEstimator.blockFrames)
        for (index, bad) in blocks.enumerated() {
            // Until the probe first arrives (a round trip's first `latency`
            // frames, a listener started before the player) nothing is lost.
            if !heardProbe {
                if bad { continue }
                heardProbe = true
            }
            let time = windowStartSeconds + Double(index) * blockSeconds
            if bad, openDropoutStart == nil {
                // A burst of lost packets often breaks the stream in several
                // places as the receiver resyncs: one burst, one dropout.
                if let last = dropouts.last, time - (last.startSeconds + last.durationSeconds) < Self.mergeSeconds {
                    dropouts.removeLast()
                    openDropoutStart = last.startSeconds
                } else {
                    openDropoutStart = time
                }
            }
            if !bad, let start = openDropoutStart {
                dropouts.append(Dropout(startSeconds: start, durationSeconds: time - start))
                openDropoutStart = nil
            }
        }
    }

    /// Closes a dropout still open at the end of the stream (call once, at the end).
    public func finish() {
        if readings.isEmpty, let first = firstWindow { _ = record(read(first.samples, first.startFrame, first.endSeconds)) }
        guard let start = openDropoutStart, let last = readings.last else { return }
        dropouts.append(Dropout(startSeconds: start, durationSeconds: last.timeSeconds - start))
        openDropoutStart = nil
    }

    /// A dropout still open, if any: its start.
    public var openDropoutStartSeconds: Double? { openDropoutStart }

    /// A step between two readings in a row. A bridge's resampler loop lets
    /// the latency wander by a fraction of a frame a second; a resync or a
    /// new network delay moves it at once.
    private func trackChange(_ reading: LinkReading) {
        guard !unwraps else { return }   // one way: the delay walks with the drift by design
        defer { stableLatency = reading.latencyFrames }
        guard let previous = stableLatency else { return }
        if abs(reading.latencyFrames - previous) > changeThresholdFrames {
            changes.append(LatencyChange(timeSeconds: reading.timeSeconds, fromFrames: previous,
                                         toFrames: reading.latencyFrames))
        }
    }
}
