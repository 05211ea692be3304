import ToneDSP

extension CableStreamReceiver {
    /// Whole samples either way a frame's symbols are searched for after a
    /// frame failed: half a symbol (a jump of a JACK period of up to 1024
    /// frames at 48 kHz, an xrun on either side, a discontinuity).
    var reacquisitionSpan: Int { geometry.symbolSamples / 2 }

    /// How much better (share of the prefix's energy) the cyclic prefix must
    /// match elsewhere than where the timing puts it, before the frame is read
    /// there: one sample off loses about 1/32 of the prefix's match, noise at
    /// 20 dB moves it by about 0.01.
    static let reacquisitionGain = 0.01

    /// How well frame `frame`'s symbols' cyclic prefixes match their blocks'
    /// ends, read `shift` whole samples from where the timing puts them
    /// (1: a perfect match; a mute or noise alone: about 0); nil where the
    /// samples are not in the buffer.
    func prefixMatch(_ transmission: Transmission, frame: Int, shift: Int) -> Double? {
        let size = geometry.fftSize
        let prefix = geometry.prefixSamples
        var product = 0.0
        var energy = 0.0
        let firstSymbol = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
        for symbol in firstSymbol..<(firstSymbol + CablePlan.symbolsPerFrame) {
            let sent = geometry.symbolStart(symbol)
            let at = Double(transmission.start + sent) + transmission.timing.offset(at: sent)
            let first = Int(at.rounded()) + shift - bufferStart
            guard first >= 0, first + size + prefix <= buffer.count else { return nil }
            for index in first..<(first + prefix) {
                let early = Double(buffer[index])
                let late = Double(buffer[index + size])
                product += early * late
                energy += (early * early + late * late) / 2
            }
        }
        return energy > 0 ? product / energy : 0
    }

    /// The whole-sample shift within `reacquisitionSpan` at which frame
    /// `frame`'s prefixes match best, when it beats the timing's own by
    /// `reacquisitionGain`; nil otherwise (the timing holds, or the frame is silent).
    func reacquiredShift(_ transmission: Transmission, frame: Int) -> Int? {
        guard let here = prefixMatch(transmission, frame: frame, shift: 0) else { return nil }
        var best = (shift: 0, match: here)
        for shift in -reacquisitionSpan...reacquisitionSpan where shift != 0 {
            if let match = prefixMatch(transmission, frame: frame, shift: shift), match > best.match { best = (shift, match) }
        }
        return best.shift != 0 && best.match > here + Self.reacquisitionGain ? best.shift : nil
    }

    /// Frame `frame` read `shift` whole samples from where the timing puts
    /// it: the timing so moved, and the symbols equalized; nil when its
    /// samples are not in the buffer.
    func readShifted(_ transmission: Transmission, frame: Int, shift: Int) -> (timing: CableTiming, symbols: [[Complex]])? {
        var moved = transmission
        moved.timing.offsetAtReference += Double(shift)
        let firstSymbol = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
        let indices = firstSymbol..<(firstSymbol + CablePlan.symbolsPerFrame)
        guard indices.allSatisfy({
            let range = readRange(moved, symbol: $0)
            return range.lowerBound >= bufferStart && range.upperBound <= streamSamples
        }) else { return nil }
        let symbols = indices.map { index in
            let values = spectrum(moved, symbol: index)
            return (0..<values.count).map { values[$0] / transmission.channel[$0] }
        }
        return (moved.timing, symbols)
    }
}
