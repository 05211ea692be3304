import Foundation

/// A `JackPeer` behaviour: one audio input to one output, with seeded white
/// Gaussian noise added and a mute of `muteFrames` every `muteIntervalFrames`
/// (the cable path of issue 43). It measures what it does: the noise's power
/// as added and the input's, over the frames it passed, so a test states the
/// SNR it made, not the one it asked for.
public final class NoisyPath: @unchecked Sendable {
    // @unchecked Sendable: the settings are fixed before the peer activates; the
    // state is touched only by the JACK thread; the sums are read after the peer
    // closed (jack_client_close returns once no callback runs).
    private let noiseRMS: Float
    private let muteFrames: Int
    private let muteIntervalFrames: Int
    private var state: UInt64
    private var frame = 0
    private var spare: Float?
    public private(set) var noiseEnergy = 0.0
    public private(set) var inputEnergy = 0.0
    /// Frames passed, and frames muted.
    public private(set) var frames = 0
    public private(set) var mutedFrames = 0
    /// Frames whose input was not silent (a transmission under way), and the period's input energy over them.
    public private(set) var activeFrames = 0

    /// - Parameters:
    ///   - noiseRMS: the added noise's RMS (full scale 1); 0 for none.
    ///   - muteIntervalFrames: 0 for no mutes; the first comes after one interval.
    public init(noiseRMS: Double, muteFrames: Int, muteIntervalFrames: Int, seed: UInt64) {
        self.noiseRMS = Float(noiseRMS)
        self.muteFrames = muteFrames
        self.muteIntervalFrames = muteIntervalFrames
        state = seed | 1
    }

    private func uniform() -> Float {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return (Float(state >> 40) + 0.5) / Float(1 << 24)
    }

    /// Box–Muller, two values a turn.
    private func gaussian() -> Float {
        if let value = spare {
            spare = nil
            return value
        }
        let radius = (-2 * logf(uniform())).squareRoot()
        let angle = 2 * Float.pi * uniform()
        spare = radius * sinf(angle)
        return radius * cosf(angle)
    }

    /// JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        guard let output = cycle.audioOut(0) else { return }
        let input = cycle.audioIn(0)
        for n in 0..<cycle.frames {
            let muted = muteIntervalFrames > 0 && frame >= muteIntervalFrames && frame % muteIntervalFrames < muteFrames
            let signal = input?[n] ?? 0
            let noise = noiseRMS > 0 ? noiseRMS * gaussian() : 0
            output[n] = muted ? 0 : signal + noise
            if muted { mutedFrames += 1 }
            noiseEnergy += Double(noise * noise)
            inputEnergy += Double(signal * signal)
            frame += 1
        }
        frames += cycle.frames
        // A period with any input counts whole: transmissions are long, their gaps short.
        if let input, (0..<cycle.frames).contains(where: { input[$0] != 0 }) { activeFrames += cycle.frames }
    }

    /// The noise as added, dB below full scale (RMS).
    public var noiseLevelDBFS: Double { 10 * log10(noiseEnergy / Double(max(1, frames))) }
    /// The input's level while a transmission was under way, dB below full scale (RMS over the periods that carried one).
    public var inputLevelDBFS: Double { 10 * log10(inputEnergy / Double(max(1, activeFrames))) }
    /// The in-band SNR it made (dB): the input's level against the noise's share in `lowHz`…`highHz` at `sampleRateHz`.
    public func inBandSNRdB(lowHz: Double, highHz: Double, sampleRateHz: Double) -> Double {
        inputLevelDBFS - noiseLevelDBFS - 10 * log10((highHz - lowHz) / (sampleRateHz / 2))
    }
}
