import Foundation
import ToneDSP

/// Streaming matched filter for one profile's up+down chirp preamble.
///
/// Correlates the analytic, band-limited input with both chirps by FFT
/// (overlap-save), normalises by the input's in-band energy (so the metric is
/// 0…1 and independent of gain and out-of-band noise), picks the up-chirp
/// peak, looks for the down-chirp peak where the clock offset allows, and
/// turns the two peak positions into frame start and clock offset.
///
/// Worker only. All buffers are allocated in `init`.
final class PreambleDetector {
    let parameters: ModemParameters
    let sampleRateHz: Double
    /// Chirp length in samples (template length).
    let chirpFrames: Int
    let fftSize: Int
    /// Correlation outputs per block.
    let hopFrames: Int
    /// Largest clock offset searched for (±).
    static let maximumClockOffset = 1.5e-3
    static let upThreshold: Float = 0.12
    static let downThreshold: Float = 0.08

    private let forward: ComplexFFT
    private let inverseUp: ComplexFFT
    private let inverseDown: ComplexFFT
    private let inverseBand: ComplexFFT
    private let templateUp: UnsafeMutablePointer<Float>    // conj spectrum, interleaved
    private let templateDown: UnsafeMutablePointer<Float>
    private let bandGain: UnsafeMutablePointer<Float>
    private let templateEnergy: Float
    private let energyPrefix: UnsafeMutablePointer<Double>
    /// Metric history by stream position (ring).
    private let ringSize: Int
    private let upRing: UnsafeMutablePointer<Float>
    private let downRing: UnsafeMutablePointer<Float>
    private let maxShiftFrames: Int
    private let downOffsetFrames: Int

    /// Stream position of the next correlation output to compute.
    private(set) var nextPosition = 0
    private var pendingPosition = -1
    private var pendingValue: Float = 0

    init?(parameters: ModemParameters, sampleRateHz: Double) {
        self.parameters = parameters
        self.sampleRateHz = sampleRateHz
        chirpFrames = Int((parameters.chirpSeconds * sampleRateHz).rounded(.down))
        var size = 1024
        while size < 2 * chirpFrames { size *= 2 }
        fftSize = size
        hopFrames = size - chirpFrames + 1
        guard let forward = ComplexFFT(size: size, inverse: false),
              let inverseUp = ComplexFFT(size: size, inverse: true),
              let inverseDown = ComplexFFT(size: size, inverse: true),
              let inverseBand = ComplexFFT(size: size, inverse: true) else { return nil }
        self.forward = forward
        self.inverseUp = inverseUp
        self.inverseDown = inverseDown
        self.inverseBand = inverseBand
        templateUp = .allocate(capacity: 2 * size)
        templateDown = .allocate(capacity: 2 * size)
        bandGain = .allocate(capacity: size)
        energyPrefix = .allocate(capacity: size + 1)
        let shift = Self.maximumClockOffset * (2 * parameters.chirpCenterHz / parameters.chirpRateHzPerSecond
                                               + parameters.chirpSeconds) * sampleRateHz
        maxShiftFrames = Int(shift.rounded(.up)) + 4
        downOffsetFrames = Int((parameters.chirpSeconds * sampleRateHz).rounded())
        var ring = 1024
        while ring < 2 * (chirpFrames + maxShiftFrames) + 16 { ring *= 2 }
        ringSize = ring
        upRing = .allocate(capacity: ring)
        downRing = .allocate(capacity: ring)
        upRing.initialize(repeating: 0, count: ring)
        downRing.initialize(repeating: 0, count: ring)

        var energy: Float = 0
        for (template, up) in [(templateUp, true), (templateDown, false)] {
            let buffer = forward.buffer
            buffer.initialize(repeating: 0, count: 2 * size)
            energy = 0
            for m in 0..<chirpFrames {
                let t = Double(m) / sampleRateHz
                let rate = parameters.chirpRateHzPerSecond
                let phase = up ? 2 * Double.pi * (parameters.chirpLowHz * t + 0.5 * rate * t * t)
                               : 2 * Double.pi * (parameters.chirpHighHz * t - 0.5 * rate * t * t)
                let w = ModemModulator.taper(t, length: parameters.chirpSeconds - parameters.taperSeconds,
                                             edge: parameters.taperSeconds)
                buffer[2 * m] = Float(w * cos(phase))
                buffer[2 * m + 1] = Float(w * sin(phase))
                energy += Float(w * w)
            }
            forward.execute()
            for k in 0..<size {
                template[2 * k] = buffer[2 * k]
                template[2 * k + 1] = -buffer[2 * k + 1]
            }
        }
        templateEnergy = energy
        for k in 0..<size {
            let frequencyHz = Double(k) * sampleRateHz / Double(size)
            let inBand = k <= size / 2 && frequencyHz >= parameters.lowHz && frequencyHz <= parameters.highHz
            bandGain[k] = inBand ? 2 / Float(size) : 0
        }
    }

    deinit {
        templateUp.deallocate()
        templateDown.deallocate()
        bandGain.deallocate()
        energyPrefix.deallocate()
        upRing.deallocate()
        downRing.deallocate()
    }

    /// Forgets pending peaks and continues at `position` (after a gap).
    func reset(at position: Int) {
        nextPosition = position
        pendingPosition = -1
        pendingValue = 0
        upRing.update(repeating: 0, count: ringSize)
        downRing.update(repeating: 0, count: ringSize)
    }

    /// Oldest stream position still needed.
    var oldestNeededPosition: Int { min(nextPosition, pendingPosition < 0 ? nextPosition : pendingPosition) - 2 }

    /// Runs every block whose samples are in `history`; appends preambles found.
    func advance(history: SampleHistory, into found: inout [PreambleCandidate]) {
        if nextPosition < history.startPosition { reset(at: history.startPosition) }
        while let block = history.pointer(at: nextPosition, length: fftSize) {
            process(block, into: &found)
        }
    }

    private func process(_ block: UnsafePointer<Float>, into found: inout [PreambleCandidate]) {
        let size = fftSize
        let x = forward.buffer
        for n in 0..<size {
            x[2 * n] = block[n]
            x[2 * n + 1] = 0
        }
        forward.execute()
        let up = inverseUp.buffer, down = inverseDown.buffer, band = inverseBand.buffer
        for k in 0..<size {
            let g = bandGain[k]
            let re = x[2 * k] * g, im = x[2 * k + 1] * g
            band[2 * k] = re
            band[2 * k + 1] = im
            let ur = templateUp[2 * k], ui = templateUp[2 * k + 1]
            up[2 * k] = re * ur - im * ui
            up[2 * k + 1] = re * ui + im * ur
            let dr = templateDown[2 * k], di = templateDown[2 * k + 1]
            down[2 * k] = re * dr - im * di
            down[2 * k + 1] = re * di + im * dr
        }
        inverseUp.execute()
        inverseDown.execute()
        inverseBand.execute()
        energyPrefix[0] = 0
        for n in 0..<size {
            let re = Double(band[2 * n]), im = Double(band[2 * n + 1])
            energyPrefix[n + 1] = energyPrefix[n] + re * re + im * im
        }
        let mask = ringSize - 1
        for n in 0..<hopFrames {
            let windowEnergy = max(energyPrefix[n + chirpFrames] - energyPrefix[n], 1e-30)
            let scale = 1 / (Double(templateEnergy) * windowEnergy)
            let ur = Double(up[2 * n]), ui = Double(up[2 * n + 1])
            let dr = Double(down[2 * n]), di = Double(down[2 * n + 1])
            let position = nextPosition + n
            let upMetric = Float(min(1, (ur * ur + ui * ui) * scale))
            upRing[position & mask] = upMetric
            downRing[position & mask] = Float(min(1, (dr * dr + di * di) * scale))
            if pendingPosition >= 0, position >= pendingPosition + downOffsetFrames + maxShiftFrames + 1 {
                if let candidate = finalize() { found.append(candidate) }
                pendingPosition = -1
                pendingValue = 0
            }
            if upMetric >= Self.upThreshold, upMetric > pendingValue {
                pendingPosition = position
                pendingValue = upMetric
            }
        }
        nextPosition += hopFrames
    }

    /// Parabolic interpolation of the peak at `position` in `ring`.
    private func refine(_ ring: UnsafeMutablePointer<Float>, _ position: Int) -> Double {
        let mask = ringSize - 1
        let a = Double(ring[(position - 1) & mask]).squareRoot()
        let b = Double(ring[position & mask]).squareRoot()
        let c = Double(ring[(position + 1) & mask]).squareRoot()
        let denominator = a - 2 * b + c
        guard denominator < 0 else { return Double(position) }
        return Double(position) + max(-0.5, min(0.5, 0.5 * (a - c) / denominator))
    }

    private func finalize() -> PreambleCandidate? {
        let mask = ringSize - 1
        let center = pendingPosition + downOffsetFrames
        var best = -1
        var bestValue: Float = Self.downThreshold
        for position in (center - maxShiftFrames)...(center + maxShiftFrames) where downRing[position & mask] > bestValue {
            best = position
            bestValue = downRing[position & mask]
        }
        guard best >= 0 else { return nil }
        let p = parameters
        let upSeconds = refine(upRing, pendingPosition) / sampleRateHz
        let downSeconds = refine(downRing, best) / sampleRateHz
        let sensitivity = p.clockOffsetSensitivitySeconds
        // Wide chirps around a low centre (the audible profiles) measure ε coarsely;
        // an estimate past the limit is noise on a real offset near it, so clamp it.
        let raw = ((downSeconds - upSeconds) - p.chirpSeconds) / sensitivity
        let epsilon = max(-Self.maximumClockOffset, min(Self.maximumClockOffset, raw))
        let startSeconds = upSeconds + epsilon * p.chirpCenterHz / p.chirpRateHzPerSecond
        return PreambleCandidate(profile: p.profile, startPosition: startSeconds * sampleRateHz,
                                 clockOffset: epsilon, strength: pendingValue,
                                 clockOffsetStep: 0.25 / (sampleRateHz * sensitivity),
                                 startFramesPerClockOffset: p.chirpCenterHz / p.chirpRateHzPerSecond * sampleRateHz)
    }
}
