import Foundation
import ToneDSP

/// Renders messages as samples at any sample rate.
///
/// Not real-time: call it on a non-RT thread and hand the finished samples to
/// the audio thread, which only copies them out (`ModemTransmission`).
public struct ModemModulator: Sendable {
    public let parameters: ModemParameters
    public let sampleRateHz: Double
    /// Peak sample value of the rendered transmission.
    public let peakLevel: Float
    /// Silence before and after each frame, which also holds the band-limiting filter's ringing.
    public let paddingSeconds: Double

    private let code: ConvolutionalCodeShape
    private let interleaver: BitInterleaver

    public enum SetupError: Error, CustomStringConvertible {
        case invalid(String)
        public var description: String {
            switch self { case .invalid(let reason): reason }
        }
    }

    /// - Parameters:
    ///   - peakLevel: largest |sample| of the output, 0 < level ≤ 1.
    public init(profile: ModemProfile, sampleRateHz: Double, peakLevel: Float = 0.5,
                paddingSeconds: Double = 0.025) throws {
        let parameters = profile.parameters
        if let problem = parameters.problem(sampleRateHz: sampleRateHz) { throw SetupError.invalid(problem) }
        guard peakLevel > 0, peakLevel <= 1 else { throw SetupError.invalid("the peak level must be in (0, 1]") }
        self.parameters = parameters
        self.sampleRateHz = sampleRateHz
        self.peakLevel = peakLevel
        self.paddingSeconds = paddingSeconds
        code = ConvolutionalCodeShape(pattern: parameters.codePattern)
        interleaver = BitInterleaver(bitCount: parameters.codedBits,
                                     slotCount: parameters.dataSymbolCount * parameters.bitsPerSymbol)
    }

    /// Samples for a whole message: its frames one after the other.
    /// - Parameter messageID: tells this message's frames from another's; pick it at random.
    public func render(message: [UInt8], messageID: UInt16) throws -> [Float] {
        var out: [Float] = []
        for frame in try ModemFrame.frames(of: message, messageID: messageID) {
            out += render(frame: frame)
        }
        return out
    }

    /// Airtime of a message with this many bytes, padding excluded.
    public func airtimeSeconds(messageBytes: Int) -> Double {
        let frames = max(1, (messageBytes + ModemParameters.payloadBytesPerFrame - 1) / ModemParameters.payloadBytesPerFrame)
        return Double(frames) * parameters.frameSeconds
    }

    /// The slot bits (one per data-symbol slot) that carry `frame`.
    func slotBits(of frame: ModemFrame) -> [UInt8] {
        let coded = code.encode(ModemFrame.bits(of: frame.bytes))
        var slots = [UInt8](repeating: 0, count: interleaver.slotCount)
        for (index, bit) in coded.enumerated() { slots[interleaver.slotOfBit[index]] = bit }
        return slots
    }

    /// Phase of every subcarrier in every symbol (reference first), from the slot bits.
    static func symbolPhases(parameters: ModemParameters, slots: [UInt8]) -> [[Double]] {
        let count = parameters.subcarrierCount
        var phases = [(0..<count).map(parameters.referencePhase)]
        for symbol in 0..<parameters.dataSymbolCount {
            var row = phases[symbol]
            for subcarrier in 0..<count {
                let base = (symbol * count + subcarrier) * parameters.bitsPerSubcarrier
                if parameters.bitsPerSubcarrier == 1 {
                    if slots[base] == 1 { row[subcarrier] += Double.pi }
                } else {
                    // Gray-coded DQPSK: the first bit sets the sign of cos, the second of sin.
                    let re = slots[base] == 1 ? -1.0 : 1.0
                    let im = slots[base + 1] == 1 ? -1.0 : 1.0
                    row[subcarrier] += atan2(im, re)
                }
            }
            phases.append(row)
        }
        return phases
    }

    /// One frame with its padding, band-limited to the profile's band.
    public func render(frame: ModemFrame) -> [Float] {
        render(slots: slotBits(of: frame))
    }

    /// What every frame starts with: the preamble and the reference symbol, with
    /// the frame's length and padding but silence where the data symbols go.
    func renderPreambleAndReference() -> [Float] {
        render(slots: [UInt8](repeating: 0, count: interleaver.slotCount), symbolCount: 1)
    }

    /// A frame from its slot bits; `symbolCount` symbols (the reference first) are sent.
    func render(slots: [UInt8], symbolCount: Int? = nil) -> [Float] {
        let p = parameters
        let fs = sampleRateHz
        let padFrames = Int((paddingSeconds * fs).rounded())
        let bodyFrames = Int((p.frameSeconds * fs).rounded(.up))
        var signal = [Double](repeating: 0, count: bodyFrames + 2 * padFrames)
        let phases = Self.symbolPhases(parameters: p, slots: slots)

        // Every subcarrier has amplitude 1; the chirps carry half the symbols' mean power.
        // Half of that power does for detection; the rest goes to the data.
        let chirpAmplitude = (Double(p.subcarrierCount) / 2).squareRoot()
        for (index, up) in [true, false].enumerated() {
            let start = Double(index) * p.chirpSeconds
            let first = Int((start * fs).rounded(.up)), last = Int(((start + p.chirpSeconds) * fs).rounded(.down))
            for n in first...min(last, bodyFrames - 1) {
                let t = Double(n) / fs - start
                let phase = up
                    ? 2 * Double.pi * (p.chirpLowHz * t + 0.5 * p.chirpRateHzPerSecond * t * t)
                    : 2 * Double.pi * (p.chirpHighHz * t - 0.5 * p.chirpRateHzPerSecond * t * t)
                let taper = Self.taper(t, length: p.chirpSeconds - p.taperSeconds, edge: p.taperSeconds)
                signal[padFrames + n] += chirpAmplitude * taper * cos(phase)
            }
        }
        for symbol in 0..<(symbolCount ?? p.dataSymbolCount + 1) {
            let start = p.symbolStartSeconds(symbol)
            let bodyStart = start + p.guardSeconds
            let length = p.symbolPeriodSeconds + p.taperSeconds
            let first = Int((start * fs).rounded(.up))
            let last = min(Int(((start + length) * fs).rounded(.down)), bodyFrames - 1)
            guard first <= last else { continue }
            for subcarrier in 0..<p.subcarrierCount {
                let omega = 2 * Double.pi * p.subcarrierHz(subcarrier) / fs
                let phase0 = 2 * Double.pi * p.subcarrierHz(subcarrier) * (Double(first) / fs - bodyStart)
                    + phases[symbol][subcarrier]
                // A rotating phasor instead of cos per sample; exact enough over a few thousand steps.
                var re = cos(phase0), im = sin(phase0)
                let stepRe = cos(omega), stepIm = sin(omega)
                signal.withUnsafeMutableBufferPointer { out in
                    for n in first...last {
                        let t = Double(n) / fs - start
                        out[padFrames + n] += Self.taper(t, length: p.symbolPeriodSeconds, edge: p.taperSeconds) * re
                        let nextRe = re * stepRe - im * stepIm
                        im = re * stepIm + im * stepRe
                        re = nextRe
                    }
                }
            }
        }
        Self.bandLimit(&signal, sampleRateHz: fs, lowHz: p.lowHz, highHz: p.highHz)
        let peak = signal.reduce(0) { max($0, abs($1)) }
        let scale = peak > 0 ? Double(peakLevel) / peak : 0
        return signal.map { Float($0 * scale) }
    }

    /// Raised-cosine rise over [0, edge) and fall over [length, length + edge).
    @inline(__always) static func taper(_ t: Double, length: Double, edge: Double) -> Double {
        if t < 0 || t > length + edge { return 0 }
        if t < edge { return 0.5 - 0.5 * cos(Double.pi * t / edge) }
        if t > length { return 0.5 + 0.5 * cos(Double.pi * (t - length) / edge) }
        return 1
    }

    /// Keeps only [lowHz, highHz] with raised-cosine transitions 50 Hz wide
    /// inside the band: whatever the symbol edges do, nothing leaves the band.
    static func bandLimit(_ signal: inout [Double], sampleRateHz: Double, lowHz: Double, highHz: Double) {
        let size = (signal.count + 1023) / 1024 * 1024
        guard let forward = ComplexFFT(size: size, inverse: false),
              let inverse = ComplexFFT(size: size, inverse: true) else { return }
        for n in 0..<signal.count { forward.buffer[2 * n] = Float(signal[n]) }
        forward.execute()
        let transitionHz = 50.0
        func gain(_ frequencyHz: Double) -> Float {
            let f = abs(frequencyHz)
            if f <= lowHz || f >= highHz { return 0 }
            if f < lowHz + transitionHz { return Float(0.5 - 0.5 * cos(Double.pi * (f - lowHz) / transitionHz)) }
            if f > highHz - transitionHz { return Float(0.5 - 0.5 * cos(Double.pi * (highHz - f) / transitionHz)) }
            return 1
        }
        for k in 0..<size {
            let frequencyHz = Double(k <= size / 2 ? k : k - size) * sampleRateHz / Double(size)
            let g = gain(frequencyHz) / Float(size)
            inverse.buffer[2 * k] = forward.buffer[2 * k] * g
            inverse.buffer[2 * k + 1] = forward.buffer[2 * k + 1] * g
        }
        inverse.execute()
        for n in 0..<signal.count { signal[n] = Double(inverse.buffer[2 * n]) }
    }
}

/// The encoder half of `ConvolutionalCode` without its decoder buffers, so the
/// modulator stays a value type.
struct ConvolutionalCodeShape: Sendable {
    let pattern: [Bool]

    func encode(_ bits: [UInt8]) -> [UInt8] {
        ConvolutionalCode(pattern: pattern).encode(bits)
    }
}
