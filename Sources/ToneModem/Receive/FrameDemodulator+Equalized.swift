import Foundation
import ToneDSP

extension FrameDemodulator {
    /// Tries after undoing the room.
    ///
    /// The clock offset is first refined from the plain DFTs (`reading`, from `residualClockOffset`),
    /// which leaves it ambiguous by multiples of a step; each of the three nearest
    /// readings is tried with the response fitted to the preamble and the
    /// reference symbol (the samples every frame starts with) and divided out of
    /// the whole frame. If all fail their check, the reading whose symbols came
    /// out cleanest is tried twice more, with the clock read again from the
    /// equalized DFTs and the response fitted to the whole frame as the failed
    /// decoding read it (mostly right, and much longer than the preamble).
    func decodeEqualized(_ samples: UnsafePointer<Float>, origin: Int, count: Int,
                         startPosition: Double, clockOffset: Double,
                         reading: (offset: Double, ambiguity: Double, coherence: Double)) -> Result? {
        guard let equalizer else { return nil }
        let lead = equalizer.leadFrames
        let start = Int(startPosition.rounded())
        let local = start - lead - origin
        guard local >= 0 else { return nil }
        let received = UnsafeBufferPointer(start: samples + local, count: count - local)
        // `reading`: the clock from the plain DFTs of the failed direct decoding.
        let base = clockOffset + reading.offset
        var best: (coherence: Double, clockOffset: Double, decisions: [UInt8])?
        for alias in [0.0, -1, 1] {
            let candidate = base + alias * reading.ambiguity
            guard abs(candidate) <= 1.5 * PreambleDetector.maximumClockOffset else { continue }
            if let result = equalizedTry(received, start: start, clockOffset: candidate, decisions: nil) { return result }
            let after = residualClockOffset()
            if after.coherence > best?.coherence ?? -1 {
                best = (after.coherence, candidate + after.offset, slotBits(ofInformationBits: lastBits))
            }
        }
        for _ in 0..<2 {
            guard let chosen = best else { return nil }
            if let result = equalizedTry(received, start: start, clockOffset: chosen.clockOffset,
                                         decisions: chosen.decisions) { return result }
            let after = residualClockOffset()
            best = (after.coherence, chosen.clockOffset + after.offset, slotBits(ofInformationBits: lastBits))
        }
        return nil
    }

    /// Fits the response (to the known start of the frame, or to the whole frame
    /// rendered from `decisions`), divides it out and decodes what is left.
    /// - Parameter received: starts `leadFrames` before stream position `start`, the frame's sender time 0.
    private func equalizedTry(_ received: UnsafeBufferPointer<Float>, start: Int, clockOffset: Double,
                              decisions: [UInt8]?) -> Result? {
        guard let equalizer, let base = received.baseAddress else { return nil }
        let p = parameters
        // The sender's samples as they arrive here: rendered at the rate its clock makes ours.
        let senderRateHz = sampleRateHz / (1 + clockOffset)
        guard let modulator = try? ModemModulator(profile: p.profile, sampleRateHz: senderRateHz,
                                                  paddingSeconds: 0) else { return nil }
        let frameFrames = Int((p.frameSeconds * senderRateHz).rounded(.up))
        let responseFrames = Int((p.equalizerSeconds * sampleRateHz).rounded())
        let segment = min(received.count, equalizer.leadFrames + frameFrames + responseFrames)
        guard segment >= equalizer.leadFrames + frameFrames else { return nil }
        let sent = decisions.map { modulator.render(slots: $0) } ?? modulator.renderPreambleAndReference()
        let observedFrames = decisions == nil ? Int((p.symbolStartSeconds(1) * senderRateHz).rounded(.down)) : frameFrames
        guard let response = equalizer.estimateResponse(sent: sent, received: base, observedFrames: observedFrames,
                                                        responseFrames: responseFrames),
              let clean = equalizer.deconvolve(base, count: segment, response: response,
                                               lowHz: p.lowHz * (1 + clockOffset), highHz: p.highHz * (1 + clockOffset))
        else { return nil }
        // clean[n] is the sender's sample n, at stream position start + n.
        return clean.withUnsafeBufferPointer {
            decodeDirect($0.baseAddress!, origin: start, count: $0.count, startPosition: Double(start),
                         clockOffset: clockOffset)
        }
    }

    /// The clock offset left in `bins` (by the last DFTs), from the phase step
    /// common to all subcarriers from one symbol to the next.
    ///
    /// In a room, echoes bias each chirp's matched-filter peak, which the
    /// preamble reads to about a sample: some 40 ppm in the ultrasonic band. The
    /// equalizer needs a few ppm. The differential products raised to the 4th
    /// power lose their data (each increment is an odd multiple of π/4) and keep
    /// four times the step, 2π·f·δ·T; averaged over every subcarrier and symbol
    /// they measure δ even where echoes leave each product little better than noise.
    /// Unambiguous within ±1/(8·f·T) (±105 ppm for `ultrasonic-fast`): `ambiguity`
    /// is the step between readings that look alike. `coherence` (0…1) is how
    /// well the products agree: near 1 for clean symbols, near 0 for noise.
    func residualClockOffset() -> (offset: Double, ambiguity: Double, coherence: Double) {
        let p = parameters
        guard p.bitsPerSubcarrier == 2 else { return (0, 0, 0) }
        let k = p.subcarrierCount
        var sum = Complex(0, 0)
        var products = 0
        for symbol in 1..<symbolCount {
            for subcarrier in 0..<k {
                guard let d = differentialProduct(symbol: symbol, subcarrier: subcarrier) else { continue }
                let magnitude = d.magnitude
                // Unit magnitude: strong subcarriers should not drown the others' phase.
                let unit = Complex(d.re / magnitude, d.im / magnitude)
                sum = sum + unit.power(4)
                products += 1
            }
        }
        let centreHz = (p.subcarrierHz(0) + p.subcarrierHz(k - 1)) / 2
        let ambiguity = 1 / (4 * centreHz * p.symbolPeriodSeconds)
        guard products > 0, sum.magnitude > 0 else { return (0, ambiguity, 0) }
        // Data-free, the 4th power points along −1 (e^{jπ} for every increment).
        let step = atan2(-sum.im, -sum.re) / 4
        return (step / (2 * Double.pi * centreHz * p.symbolPeriodSeconds), ambiguity, sum.magnitude / Double(products))
    }
}
