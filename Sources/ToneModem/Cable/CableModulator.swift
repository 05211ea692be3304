import ToneDSP

/// Renders bytes of any length as one cable transmission (see
/// `CableGeometry`): OFDM, per-band QAM from a `CablePlan`, frames of
/// `CablePlan.symbolsPerFrame` symbols each with a sequence number and CRC-32.
public struct CableModulator {
    public let geometry: CableGeometry
    public let plan: CablePlan
    /// Peak sample magnitude of the output.
    public let peakLevel: Float

    public enum SetupError: Error, CustomStringConvertible {
        case sampleRate(String)
        case planTooSmall

        public var description: String {
            switch self {
            case .sampleRate(let sentence): sentence
            case .planTooSmall: "the plan leaves no room for a frame"
            }
        }
    }

    public init(sampleRateHz: Double, plan: CablePlan = .fileDefault, peakLevel: Float = 0.5) throws {
        guard let geometry = CableGeometry(sampleRateHz: sampleRateHz) else {
            throw SetupError.sampleRate(CableGeometry.problem(sampleRateHz: sampleRateHz) ?? "bad sample rate")
        }
        self.geometry = geometry
        self.plan = plan
        self.peakLevel = peakLevel
    }

    /// Payload bytes per frame under this plan.
    public func payloadBytesPerFrame() throws -> Int { try coder().payloadBytes }

    /// File bytes one segment (`CableSegment`) carries under this plan.
    public func segmentDataBytes() throws -> Int {
        guard let bytes = CableSegment.dataBytes(plan: plan, carrierCount: geometry.carrierCount) else { throw SetupError.planTooSmall }
        return bytes
    }

    private func coder() throws -> CableDataCoder {
        guard let coder = CableDataCoder(plan: plan, carrierCount: geometry.carrierCount) else { throw SetupError.planTooSmall }
        return coder
    }

    /// Samples of the whole transmission of `message` (not empty), a short silence after it.
    public func render(message: [UInt8]) throws -> [Float] {
        precondition(!message.isEmpty)
        let coder = try coder()
        let frameCount = (message.count + coder.payloadBytes - 1) / coder.payloadBytes
        let header = CableHeader(plan: plan, messageBytes: message.count, messageCRC: CRC32.checksum(message), frameCount: frameCount)
        let symbolCount = CableGeometry.firstDataSymbol + frameCount * CablePlan.symbolsPerFrame
        var samples = [Double](repeating: 0, count: geometry.symbolStart(symbolCount) + geometry.fftSize / 4)
        guard let fft = DoubleFFT(size: geometry.fftSize) else { throw SetupError.planTooSmall }
        let carriers = geometry.carrierCount
        // The chirp carries about the OFDM symbols' RMS, scaled below with them.
        let symbolRMS = (Double(carriers) / 2).squareRoot() / Double(geometry.fftSize)
        for (index, value) in geometry.chirp().enumerated() { samples[index] = value * symbolRMS * 2.squareRoot() }
        func place(_ symbol: Int, _ values: [Complex]) {
            var spectrum = [Complex](repeating: Complex(0, 0), count: fft.binCount)
            for (carrier, value) in values.enumerated() { spectrum[geometry.firstBin + carrier] = value }
            let body = fft.signal(from: spectrum)
            let start = geometry.symbolStart(symbol)
            let prefix = geometry.prefixSamples
            for index in 0..<(prefix + geometry.fftSize) { samples[start + index] = body[(index - prefix + geometry.fftSize) % geometry.fftSize] }
        }
        let training = (0..<carriers).map { geometry.trainingValue($0) }
        place(0, training)
        place(1, training)
        let headerCoder = CableFrameCoder(slotCount: CableHeader.codedBits, rate: .half, informationBytes: CableHeader.byteCount)
        let headerBits = headerCoder?.encode(header.bytes) ?? []
        place(2, (0..<carriers).map { Complex(headerBits[$0 % headerBits.count] == 0 ? 1 : -1, 0) })
        for frame in 0..<frameCount {
            let start = frame * coder.payloadBytes
            let payload = message[start..<min(message.count, start + coder.payloadBytes)]
            let bytes = CableFrameCoder.frameBytes(sequence: UInt32(frame), payload: payload, payloadBytes: coder.payloadBytes)
            for (symbol, values) in coder.symbols(bytes).enumerated() {
                place(CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame + symbol, values)
            }
        }
        let peak = samples.reduce(0) { max($0, abs($1)) }
        let gain = peak > 0 ? Double(peakLevel) / peak : 0
        return samples.map { Float($0 * gain) }
    }

    /// Seconds of audio `render` makes for `messageBytes` bytes.
    public func seconds(messageBytes: Int) throws -> Double {
        let payload = try coder().payloadBytes
        let frames = max(1, (messageBytes + payload - 1) / payload)
        let samples = geometry.symbolStart(CableGeometry.firstDataSymbol + frames * CablePlan.symbolsPerFrame) + geometry.fftSize / 4
        return Double(samples) / geometry.sampleRateHz
    }
}
