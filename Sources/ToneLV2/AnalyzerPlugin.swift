import CLV2
import ToneDSP

/// The analyzer plugin's instance: the plugin form of the node's engine and
/// worker. `run()` (the host's audio thread) passes its input through, copies
/// it into an `InputCapture` ring and, every hop, asks the host to run `work`
/// on its worker thread (LV2 Worker extension); `work` drains the ring
/// through the node's analyzer (`AnalyzerWorker`) and responds with the last
/// reading, which `work_response` (audio thread) shows on the control outputs.
///
/// Audio-thread state (`ports`, `unscheduled`, `shown`) is touched by
/// `run`/`work_response` only; `worker` by `work` only; the ring is the one
/// thing both sides share, single producer, single consumer.
final class AnalyzerPlugin {
    let sampleRateHz: Double
    private let schedule: UnsafePointer<LV2_Worker_Schedule>
    private let ports = PortTable(count: Port.count)
    let capture: InputCapture
    /// Frames `run` copies between two looks at the schedule (a block larger
    /// than the ring is fed in pieces, so a host whose worker runs at once,
    /// as offline hosts' do, loses nothing).
    private let pieceFrames: Int
    /// The analyzer's hop: a request to the worker every this many frames.
    private let hopFrames = AnalyzerSettings.hopFrames
    /// Frames captured since the last `schedule_work` that the host took.
    private var unscheduled = 0
    /// The reading on the outputs.
    private var shown = AnalyzerReading()
    /// Frames run since the last reading came back; past `staleFrames` the
    /// reading is withdrawn (a host whose worker stalls must not leave a tone
    /// on the outputs that is no longer there).
    private var framesSinceReading = 0
    private let staleFrames: Int
    /// What the outputs say without a reading (made here: `run` calls no initializer of another file).
    private let noReading = AnalyzerReading()
    /// What a control input the host left unconnected reads: the node's
    /// defaults (tone mode, standard A4, its band with the top at Nyquist, its pitch range).
    private let unconnected = AnalyzerRequest(mode: 0, a4Hz: Float(EqualTemperament.standardA4Hz),
                                              lowHz: Float(ToneEstimatorConfiguration.defaultLowHz), highHz: .infinity,
                                              pitchLowHz: Float(PitchDetectorConfiguration.defaultLowHz),
                                              pitchHighHz: Float(PitchDetectorConfiguration.defaultHighHz),
                                              steadySeconds: Float(SteadySpan.defaultMaxSeconds))
    let worker: AnalyzerWorker

    /// Nil for a sample rate the estimator is not made for.
    init?(sampleRateHz: Double, schedule: UnsafePointer<LV2_Worker_Schedule>) {
        guard sampleRateHz.isFinite, ToneEstimatorConfiguration.sampleRateRangeHz.contains(sampleRateHz) else { return nil }
        self.sampleRateHz = sampleRateHz
        self.schedule = schedule
        // Four seconds, as the node's capture: room for a slow worker.
        let capacity = max(4 * Int(sampleRateHz), 4 * AnalyzerSettings.windowFrames)
        capture = InputCapture(capacityFrames: capacity)
        pieceFrames = capacity / 4
        // Half a second, and never less than four windows: a slow worker's late reading is still shown.
        staleFrames = max(Int(sampleRateHz / 2), 4 * AnalyzerSettings.windowFrames)
        worker = AnalyzerWorker(sampleRateHz: sampleRateHz, chunkFrames: pieceFrames)
    }

    deinit { ports.free() }

    func connect(_ port: Int, _ data: UnsafeMutableRawPointer?) { ports.connect(port, data) }

    // MARK: - Audio thread

    /// One block: the input into the ring and out unchanged, a request to the
    /// worker every hop, the latest reading on the outputs. Never allocates,
    /// locks or waits, at any block size.
    @_noLocks
    func run(frames: Int) {
        if let latency = ports.buffer(Port.latency) { latency.pointee = 0 }
        if let input = ports.buffer(Port.input) {
            var done = 0
            while done < frames {
                let piece = min(frames - done, pieceFrames)
                capture.capture(input + done, count: piece)
                done += piece
                unscheduled += piece
                if unscheduled >= hopFrames { requestWork() }
            }
            // In place or not: `copyMemory` is a memmove.
            if let output = ports.buffer(Port.output) {
                UnsafeMutableRawPointer(output).copyMemory(from: input, byteCount: frames * MemoryLayout<Float>.stride)
            }
        }
        framesSinceReading = min(framesSinceReading + frames, staleFrames + 1)
        if framesSinceReading > staleFrames { shown = noReading }
        show()
    }

    /// Asks for `work` with the control inputs of now; a full host queue
    /// leaves the frames counted for the next block.
    @_noLocks
    private func requestWork() {
        var request = AnalyzerRequest(mode: ports.value(Port.mode, unconnected.mode),
                                      a4Hz: ports.value(Port.a4, unconnected.a4Hz),
                                      lowHz: ports.value(Port.low, unconnected.lowHz),
                                      highHz: ports.value(Port.high, unconnected.highHz),
                                      pitchLowHz: ports.value(Port.pitchLow, unconnected.pitchLowHz),
                                      pitchHighHz: ports.value(Port.pitchHigh, unconnected.pitchHighHz),
                                      steadySeconds: ports.value(Port.steady, unconnected.steadySeconds))
        let schedule = schedule    // a pointer, not `self`: the closure then retains nothing
        let status = withUnsafeBytes(of: &request) { bytes in
            // Unknown to the checker, safe by contract: the worker extension
            // requires `schedule_work` to be real-time safe (it copies into
            // the host's preallocated queue, or runs `work` at once offline).
            _unsafePerformance {
                tn_lv2_schedule(schedule, UInt32(bytes.count), bytes.baseAddress)
            }
        }
        if status == 0 { unscheduled = 0 }
    }

    /// A reading from the worker (audio thread, between blocks): shown at once.
    @_noLocks
    func receive(_ reading: AnalyzerReading) {
        shown = reading
        framesSinceReading = 0
        show()
    }

    @_noLocks
    private func show() {
        ports.set(Port.frequency, shown.frequencyHz)
        ports.set(Port.level, shown.levelDBFS)
        ports.set(Port.snr, shown.snrDB)
        ports.set(Port.note, shown.note)
        ports.set(Port.cents, shown.cents)
        ports.set(Port.sigmaHz, shown.sigmaHz)
        ports.set(Port.sigmaCents, shown.sigmaCents)
        ports.set(Port.valid, shown.valid)
        ports.set(Port.spanSeconds, shown.spanSeconds)
    }

}

/// The analyzer's ports, numbered as `bundle/tonenode.ttl` declares them.
/// Plain numbers, not an enum's raw values, in this file: `run()` indexes
/// with them, and the `@_noLocks` checker cannot see into another file's
/// functions (`rawValue`, a global's accessor) in a debug build.
extension AnalyzerPlugin {
    enum Port {
        static let input = 0, output = 1, latency = 2
        /// Control inputs.
        static let mode = 3, a4 = 4, low = 5, high = 6
        /// Control outputs: the last reading.
        static let frequency = 7, level = 8, snr = 9, note = 10, cents = 11, sigmaHz = 12, sigmaCents = 13, valid = 14
        /// Control inputs added after the outputs (indices stay as first published).
        static let pitchLow = 15, pitchHigh = 16
        /// The span the frequency is fitted over (output), and the longest it may be (input, 0: off).
        static let spanSeconds = 17, steady = 18
        static let count = 19
    }
}
