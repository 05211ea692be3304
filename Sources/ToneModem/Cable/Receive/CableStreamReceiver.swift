import ToneDSP

/// Reads cable transmissions from a stream of samples in chunks of any size
/// (live input, or a file pushed at once): finds each sync chirp, measures
/// each carrier's channel and noise on the training symbols, reads the header,
/// then decodes every frame as soon as its symbols are in, keeping only the
/// samples it still needs (a transmission of any length streams through).
///
/// It never delivers a byte it cannot vouch for: a frame whose CRC fails, or
/// whose symbols span a gap the input reported (`skip`), is missing; the
/// message is delivered only whole, its length and CRC-32 matching. A
/// transmission whose signal stops (a sender that died, a file cut short) is
/// ended after a few silent frames and reported with its frames cut off.
///
/// Worker only.
public final class CableStreamReceiver {
    public let geometry: CableGeometry
    /// Samples still needed; `buffer[0]` is stream sample `bufferStart`.
    var buffer: [Float] = []
    var bufferStart = 0
    /// Stream ranges the input reported lost (`skip`), still ahead of or inside the buffer.
    var gaps: [Range<Int>] = []
    var reading: Transmission?
    /// Receptions finished since the last `push`/`finish` returned.
    var finished: [CableReception] = []
    let symbolFFT: DoubleFFT
    let searchFFT: DoubleFFT
    /// Stream samples one chirp search covers (the search FFT minus one chirp).
    let searchSpan: Int
    /// The chirp's spectrum at the search FFT's size, conjugated.
    let chirpReference: [Complex]
    /// The chirp itself, and its energy.
    let chirp: [Double]
    let chirpEnergy: Double

    public init(sampleRateHz: Double) throws {
        guard let geometry = CableGeometry(sampleRateHz: sampleRateHz) else {
            throw CableModulator.SetupError.sampleRate(CableGeometry.problem(sampleRateHz: sampleRateHz) ?? "bad sample rate")
        }
        self.geometry = geometry
        let chirp = geometry.chirp()
        let searchSize = DoubleFFT.size(atLeast: Int(0.5 * sampleRateHz) + 2 * chirp.count)
        guard let symbolFFT = DoubleFFT(size: geometry.fftSize), let searchFFT = DoubleFFT(size: searchSize) else {
            throw CableModulator.SetupError.planTooSmall
        }
        self.symbolFFT = symbolFFT
        self.searchFFT = searchFFT
        searchSpan = searchSize - chirp.count
        chirpReference = chirp.withUnsafeBufferPointer { searchFFT.spectrum(of: $0) }.map(\.conjugate)
        self.chirp = chirp
        chirpEnergy = chirp.reduce(0) { $0 + $1 * $1 }
    }

    /// Stream samples pushed or skipped so far.
    public var streamSamples: Int { bufferStart + buffer.count }

    /// Adds samples; returns the transmissions that ended in them.
    public func push(_ samples: UnsafeBufferPointer<Float>) -> [CableReception] {
        buffer.append(contentsOf: samples)
        process(final: false)
        return takeFinished()
    }

    /// Adds samples; returns the transmissions that ended in them.
    public func push(_ samples: [Float]) -> [CableReception] {
        samples.withUnsafeBufferPointer { push($0) }
    }

    /// Marks `frames` samples of the stream as lost: silence takes their
    /// place (so timing holds), and no frame whose symbols touch them is decoded.
    public func skip(frames: Int) {
        guard frames > 0 else { return }
        gaps.append(streamSamples..<(streamSamples + frames))
        buffer.append(contentsOf: repeatElement(0, count: frames))
        process(final: false)
    }

    /// The stream has ended: what is still being read is reported, its missing frames cut off.
    public func finish() -> [CableReception] {
        process(final: true)
        return takeFinished()
    }

    /// Transmissions that ended since the last call (a `skip` can end one).
    public func takeEnded() -> [CableReception] { takeFinished() }

    private func takeFinished() -> [CableReception] {
        defer { finished.removeAll() }
        return finished
    }

    /// Searches and decodes as far as the buffered samples go.
    private func process(final: Bool) {
        while true {
            if reading != nil {
                guard advance(final: final) else { return }
            } else {
                guard search(final: final) else { return }
            }
        }
    }

    /// Drops buffered samples before stream sample `position`.
    func discard(before position: Int) {
        let count = min(buffer.count, position - bufferStart)
        guard count > 0 else { return }
        buffer.removeFirst(count)
        bufferStart += count
        gaps.removeAll { $0.upperBound <= bufferStart }
    }

    /// Whether stream samples `range` touch a reported gap.
    func touchesGap(_ range: Range<Int>) -> Bool { gaps.contains { $0.overlaps(range) } }

    /// Looks for a chirp in the next search span. Returns whether it made
    /// progress (found one, or moved on past samples that hold none).
    private func search(final: Bool) -> Bool {
        let chirpSamples = geometry.chirpSamples
        guard buffer.count >= searchSpan || (final && buffer.count >= chirpSamples) else {
            if final { discard(before: streamSamples) }
            return false
        }
        let span = min(buffer.count, searchSpan)
        for index in 0..<searchFFT.size { searchFFT.real[index] = index < span ? Double(buffer[index]) : 0 }
        searchFFT.forward()
        let product = (0..<searchFFT.binCount).map {
            Complex(searchFFT.bins[2 * $0], searchFFT.bins[2 * $0 + 1]) * chirpReference[$0]
        }
        let correlation = searchFFT.signal(from: product)
        var best = 0
        var total = 0.0
        for lag in 0..<span {
            total += abs(correlation[lag])
            if abs(correlation[lag]) > abs(correlation[best]) { best = lag }
        }
        let peak = abs(correlation[best])
        var found = peak > 8 * total / Double(span) && isChirp(at: best)
        // The first chirp in the span, not the loudest: two short transmissions back to back
        // both lie in one span, and the earlier must not be skipped (its sender may be a few dB
        // quieter); what else the chirp matches (training, data, noise at the signal's level)
        // lies far below a third of a chirp's peak.
        if peak > 8 * total / Double(span), let first = (0..<best).first(where: { abs(correlation[$0]) > peak / 3 }) {
            var candidate = first
            for lag in first..<min(span, first + chirpSamples) where abs(correlation[lag]) > abs(correlation[candidate]) {
                candidate = lag
            }
            if isChirp(at: candidate) {
                best = candidate
                found = true
            }
        }
        // A chirp that runs past the span is searched again with all of it in.
        let whole = best + chirpSamples <= span
        if found && (whole || final) && !touchesGap((bufferStart + best)..<(bufferStart + best + chirpSamples)) {
            begin(atStreamSample: bufferStart + best)
            discard(before: bufferStart + best)
            return true
        }
        let keep = found && !whole ? best - chirpSamples : span - chirpSamples
        discard(before: bufferStart + max(final ? span : 1, keep))
        return !final || buffer.count >= chirpSamples
    }

    /// The least share of a window's energy the chirp must explain to be taken for one: a
    /// cable chirp alone explains all of it, in white noise SNR/(1 + SNR) (a quarter at −5 dB;
    /// below about −8 dB the correlation's own threshold finds none anyway); an ultrasonic
    /// sender's chirps (another band, another sweep rate) 0.4–1 % (measured live).
    static let minimumMatchShare = 0.05

    /// Whether the samples at `offset` can be a chirp: they match it, or are not all in yet.
    func isChirp(at offset: Int) -> Bool {
        offset + chirp.count > buffer.count || matchShare(at: offset) >= Self.minimumMatchShare
    }

    /// The share of the buffered samples' energy at `offset` that the chirp explains
    /// (1: the chirp alone; a tone profile's chirp, which sweeps another band at
    /// another rate, explains little of its own energy).
    func matchShare(at offset: Int) -> Double {
        var dot = 0.0
        var energy = 0.0
        for index in 0..<chirp.count {
            let value = Double(buffer[offset + index])
            dot += value * chirp[index]
            energy += value * value
        }
        return energy > 0 ? dot * dot / (energy * chirpEnergy) : 0
    }
}
