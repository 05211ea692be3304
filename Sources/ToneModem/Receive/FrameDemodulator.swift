import Foundation

/// Decodes one frame from samples, given where its preamble put it.
///
/// Per symbol and subcarrier a DFT over the symbol's useful part (at the
/// clock-corrected frequency and duration), differential detection against
/// the previous symbol, de-interleaving, soft-decision Viterbi, CRC-32.
///
/// Worker only. Buffers are allocated in `init`.
final class FrameDemodulator {
    let parameters: ModemParameters
    let sampleRateHz: Double
    private let code: ConvolutionalCode
    private let interleaver: BitInterleaver
    let symbolCount: Int
    /// Complex bins, [symbol][subcarrier], interleaved re/im.
    let bins: UnsafeMutablePointer<Double>
    let slotSoft: UnsafeMutablePointer<Float>
    private let codedSoft: UnsafeMutablePointer<Float>
    private let accumulators: UnsafeMutablePointer<Double>
    private let rotations: UnsafeMutablePointer<Double>
    /// The Viterbi decoder's latest output.
    private(set) var lastBits: [UInt8] = []
    /// Undoes the room for profiles that rely on it.
    let equalizer: ChannelEqualizer?

    /// Neighbours on either side averaged into a subcarrier's channel in the last tries.
    static let smoothingSubcarriers = 4

    struct Result {
        let frame: ModemFrame
        let snrDB: Double
    }

    init(parameters: ModemParameters, sampleRateHz: Double) {
        self.parameters = parameters
        self.sampleRateHz = sampleRateHz
        code = ConvolutionalCode(pattern: parameters.codePattern)
        interleaver = BitInterleaver(bitCount: parameters.codedBits,
                                     slotCount: parameters.dataSymbolCount * parameters.bitsPerSymbol)
        symbolCount = parameters.dataSymbolCount + 1
        bins = .allocate(capacity: 2 * symbolCount * parameters.subcarrierCount)
        slotSoft = .allocate(capacity: interleaver.slotCount)
        codedSoft = .allocate(capacity: parameters.codedBits)
        accumulators = .allocate(capacity: 4 * parameters.subcarrierCount)
        rotations = .allocate(capacity: 4 * parameters.subcarrierCount)
        equalizer = parameters.equalizerSeconds > 0 ? ChannelEqualizer(sampleRateHz: sampleRateHz) : nil
    }

    deinit {
        bins.deallocate()
        slotSoft.deallocate()
        codedSoft.deallocate()
        accumulators.deallocate()
        rotations.deallocate()
    }

    /// Samples (from the preamble's start) a frame occupies at this clock offset, plus
    /// margin and, for an equalized profile, the room's tail after it.
    func spanFrames(clockOffset: Double) -> Int {
        Int(((parameters.frameSeconds / (1 + clockOffset) + parameters.equalizerSeconds) * sampleRateHz).rounded(.up)) + 8
    }

    /// Samples before the preamble's start that `decode` may read.
    var leadFrames: Int { equalizer?.leadFrames ?? 0 }

    /// Preamble strength (normalised matched-filter peak) from which a frame that
    /// fails plain decoding is tried again through the equalizer. A room whose
    /// echoes carry as much energy as the direct sound halves the strength (to
    /// about 0.5); noise-only detections and echoes of a preamble stay below
    /// about 0.25 (modem-bench), and skipping them saves the equalizer's tries.
    static let equalizerStrength: Float = 0.3

    /// Decodes the frame as received; if that fails and the profile relies on it,
    /// again after undoing the room (`decodeEqualized`).
    /// - Parameters:
    ///   - samples: the received samples; `samples[0]` is at stream position `origin`.
    ///   - startPosition: stream position of the frame's sender time 0.
    ///   - strength: the preamble's matched-filter peak (`PreambleCandidate.strength`).
    func decode(_ samples: UnsafePointer<Float>, origin: Int, count: Int,
                startPosition: Double, clockOffset: Double, strength: Float = 1) -> Result? {
        if let result = decodeDirect(samples, origin: origin, count: count, startPosition: startPosition,
                                     clockOffset: clockOffset) {
            return result
        }
        guard equalizer != nil, strength >= Self.equalizerStrength else { return nil }
        // Long symbols turn a clock error into a large phase step: 100 ppm (what noise or
        // echoes can leave in the preamble's reading) is 0.84 rad per 62.5 ms symbol at
        // 19 kHz, past DQPSK's π/4. Read the clock again from the symbols and retry.
        let reading = residualClockOffset()
        let framesPerClockOffset = parameters.chirpCenterHz / parameters.chirpRateHzPerSecond * sampleRateHz
        if abs(reading.offset) > Self.clockRetryMinimum {
            for alias in [0.0, -1, 1] {
                let other = clockOffset + reading.offset + alias * reading.ambiguity
                guard abs(other) <= 1.5 * PreambleDetector.maximumClockOffset else { continue }
                if let result = decodeDirect(samples, origin: origin, count: count,
                                             startPosition: startPosition + (other - clockOffset) * framesPerClockOffset,
                                             clockOffset: other) {
                    return result
                }
            }
        }
        return decodeEqualized(samples, origin: origin, count: count, startPosition: startPosition,
                               clockOffset: clockOffset, reading: reading)
    }

    /// Smallest clock correction worth a second plain decoding.
    static let clockRetryMinimum = 3e-6

    /// Decodes the frame from `samples` as they are (no equalization).
    func decodeDirect(_ samples: UnsafePointer<Float>, origin: Int, count: Int,
                      startPosition: Double, clockOffset: Double) -> Result? {
        let p = parameters
        let fs = sampleRateHz
        let scale = 1 / (1 + clockOffset)
        let usefulFrames = Int((p.symbolSeconds * fs * scale).rounded())
        // Start the DFT early, in the middle of the clean part of the cyclic prefix,
        // so that a late timing estimate or early echoes do not reach the next symbol.
        let advanceSeconds = (p.guardSeconds - p.taperSeconds) / 2
        let k = p.subcarrierCount
        for symbol in 0..<symbolCount {
            let bodyPosition = startPosition + (p.symbolStartSeconds(symbol) + p.guardSeconds) * fs * scale
            let first = Int((bodyPosition - advanceSeconds * fs * scale).rounded(.up))
            let local = first - origin
            guard local >= 0, local + usefulFrames <= count else { return nil }
            for subcarrier in 0..<k {
                let omega = -2 * Double.pi * p.subcarrierHz(subcarrier) * (1 + clockOffset) / fs
                let phase0 = omega * (Double(first) - bodyPosition)
                rotations[4 * subcarrier] = cos(omega)
                rotations[4 * subcarrier + 1] = sin(omega)
                accumulators[4 * subcarrier] = 0
                accumulators[4 * subcarrier + 1] = 0
                accumulators[4 * subcarrier + 2] = cos(phase0)
                accumulators[4 * subcarrier + 3] = sin(phase0)
            }
            let x = samples + local
            for n in 0..<usefulFrames {
                let value = Double(x[n])
                for subcarrier in 0..<k {
                    let a = accumulators + 4 * subcarrier
                    let r = rotations + 4 * subcarrier
                    let pr = a[2], pi = a[3]
                    a[0] += value * pr
                    a[1] += value * pi
                    a[2] = pr * r[0] - pi * r[1]
                    a[3] = pr * r[1] + pi * r[0]
                }
            }
            for subcarrier in 0..<k {
                bins[2 * (symbol * k + subcarrier)] = accumulators[4 * subcarrier]
                bins[2 * (symbol * k + subcarrier) + 1] = accumulators[4 * subcarrier + 1]
            }
        }
        removeResidualClockOffset()
        // Differential detection.
        var magnitudeSum = 0.0
        let bps = p.bitsPerSubcarrier
        for symbol in 1..<symbolCount {
            for subcarrier in 0..<k {
                let current = 2 * (symbol * k + subcarrier), previous = 2 * ((symbol - 1) * k + subcarrier)
                let re = bins[current] * bins[previous] + bins[current + 1] * bins[previous + 1]
                let im = bins[current + 1] * bins[previous] - bins[current] * bins[previous + 1]
                magnitudeSum += (re * re + im * im).squareRoot()
                let slot = ((symbol - 1) * k + subcarrier) * bps
                if bps == 1 {
                    slotSoft[slot] = Float(re)
                } else {
                    slotSoft[slot] = Float(re)
                    slotSoft[slot + 1] = Float(im)
                }
            }
        }
        let normalise = magnitudeSum > 0 ? Float(Double((symbolCount - 1) * k) / magnitudeSum) : 0
        if let frame = decodeSlots(scale: normalise) { return Result(frame: frame, snrDB: snrDB(of: frame)) }
        // Second try: coherent detection against a channel estimate from all symbols (no decisions needed).
        coherentSoftBits()
        if let frame = decodeSlots(scale: 1) { return Result(frame: frame, snrDB: snrDB(of: frame)) }
        // Further tries: the channel from the previous try's (failed, but mostly right) decisions.
        for _ in 0..<2 {
            let slots = slotBits(ofInformationBits: lastBits)
            coherentSoftBits(decisions: ModemModulator.symbolPhases(parameters: p, slots: slots))
            if let frame = decodeSlots(scale: 1) { return Result(frame: frame, snrDB: snrDB(of: frame)) }
        }
        // Last tries, for a flat channel in strong noise: the same, with each subcarrier's
        // channel averaged over its neighbours.
        coherentSoftBits(smoothingSubcarriers: Self.smoothingSubcarriers)
        if let frame = decodeSlots(scale: 1) { return Result(frame: frame, snrDB: snrDB(of: frame)) }
        for _ in 0..<2 {
            let slots = slotBits(ofInformationBits: lastBits)
            coherentSoftBits(decisions: ModemModulator.symbolPhases(parameters: p, slots: slots),
                             smoothingSubcarriers: Self.smoothingSubcarriers)
            if let frame = decodeSlots(scale: 1) { return Result(frame: frame, snrDB: snrDB(of: frame)) }
        }
        return nil
    }

    /// De-interleaves `slotSoft`, runs the Viterbi decoder and checks the frame.
    private func decodeSlots(scale: Float) -> ModemFrame? {
        for (index, slot) in interleaver.slotOfBit.enumerated() {
            let value = slotSoft[slot] * scale
            codedSoft[index] = value.isFinite ? value : 0
        }
        lastBits = code.decode(UnsafeBufferPointer(start: codedSoft, count: parameters.codedBits))
        return ModemFrame(bytes: ModemFrame.bytes(of: lastBits))
    }

    /// The slot bits a sender would transmit for these information bits.
    func slotBits(ofInformationBits bits: [UInt8]) -> [UInt8] {
        var slots = [UInt8](repeating: 0, count: interleaver.slotCount)
        for (index, bit) in code.encode(bits).enumerated() { slots[interleaver.slotOfBit[index]] = bit }
        return slots
    }

    /// In-band SNR on the data subcarriers, from the decoded frame's known symbols:
    /// per subcarrier a channel estimate from all symbols, the rest is noise.
    private func snrDB(of frame: ModemFrame) -> Double {
        let modulator = try? ModemModulator(profile: parameters.profile, sampleRateHz: 1e5)
        guard let slots = modulator?.slotBits(of: frame) else { return .nan }
        let phases = ModemModulator.symbolPhases(parameters: parameters, slots: slots)
        let k = parameters.subcarrierCount
        var signal = 0.0, noise = 0.0
        for subcarrier in 0..<k {
            var hr = 0.0, hi = 0.0
            for symbol in 0..<symbolCount {
                let index = 2 * (symbol * k + subcarrier)
                let c = cos(phases[symbol][subcarrier]), s = sin(phases[symbol][subcarrier])
                hr += bins[index] * c + bins[index + 1] * s
                hi += bins[index + 1] * c - bins[index] * s
            }
            hr /= Double(symbolCount)
            hi /= Double(symbolCount)
            signal += hr * hr + hi * hi
            for symbol in 0..<symbolCount {
                let index = 2 * (symbol * k + subcarrier)
                let c = cos(phases[symbol][subcarrier]), s = sin(phases[symbol][subcarrier])
                let er = bins[index] - (hr * c - hi * s), ei = bins[index + 1] - (hr * s + hi * c)
                noise += (er * er + ei * ei) / Double(symbolCount - 1)
            }
        }
        guard noise > 0 else { return 99 }
        return min(99, 10 * log10(signal / noise))
    }
}
