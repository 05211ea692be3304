import Foundation
import ToneDSP
import ToneModem

/// Seeded channels for modem tests: noise at a full-band SNR, a synthetic
/// reverberant room, a clock offset, gain, clipping.
public enum ModemChannel {
    /// Mean power of a transmission over its airtime (padding is silence).
    public static func meanPower(_ signal: [Float], airtimeFrames: Int) -> Double {
        signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, airtimeFrames))
    }

    /// Adds white Gaussian noise (flat over 0…fs/2) at `snrDB` below `signalPower`.
    public static func addNoise(_ signal: [Float], signalPower: Double, snrDB: Double, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed)
        let sigma = (signalPower / pow(10, snrDB / 10)).squareRoot()
        return signal.map { $0 + Float(sigma * random.gaussian()) }
    }

    /// A room: a direct path plus exponentially decaying noise with the given
    /// RT60, the reverberant part carrying `reverbToDirect` times the direct energy.
    public static func roomImpulseResponse(rt60Seconds: Double, sampleRateHz: Double, seed: UInt64,
                                    reverbToDirect: Double = 1, delaySeconds: Double = 0.002) -> [Float] {
        var random = SeededRandom(seed: seed)
        let length = Int(1.2 * rt60Seconds * sampleRateHz)
        let delay = Int(delaySeconds * sampleRateHz)
        var tail = [Double](repeating: 0, count: length)
        let decay = 6.9078 / rt60Seconds  // amplitude e^{-decay t}: energy −60 dB at RT60
        for n in delay..<length {
            tail[n] = random.gaussian() * exp(-decay * Double(n) / sampleRateHz)
        }
        let energy = tail.reduce(0) { $0 + $1 * $1 }
        let scale = (reverbToDirect / energy).squareRoot()
        var response = tail.map { Float($0 * scale) }
        response[0] += 1
        return response
    }

    /// A room reduced to 14 strong echoes (4–93 ms, slowly decaying, mixed in
    /// sign) that together carry as much energy as the direct sound: cheap enough
    /// for a JACK client to apply live, and smearing each 60 ms symbol of
    /// `ultrasonic-fast` into the next as a dense tail does.
    public static func echoes(sampleRateHz: Double) -> [(delayFrames: Int, gain: Float)] {
        let delaysMs: [Double] = [4, 9, 15, 21, 27, 34, 41, 48, 56, 63, 71, 78, 86, 93]
        let raw = delaysMs.enumerated().map { index, ms in
            (Int((ms * sampleRateHz / 1000).rounded()), (index % 3 == 1 ? -1.0 : 1.0) * exp(-ms / 60))
        }
        let energy = raw.reduce(0) { $0 + $1.1 * $1.1 }
        return raw.map { ($0.0, Float($0.1 / energy.squareRoot())) }
    }

    /// `echoes` as an impulse response (direct sound 1 at frame 0).
    public static func echoResponse(sampleRateHz: Double) -> [Float] {
        let taps = echoes(sampleRateHz: sampleRateHz)
        var response = [Float](repeating: 0, count: (taps.map(\.delayFrames).max() ?? 0) + 1)
        response[0] = 1
        for tap in taps { response[tap.delayFrames] += tap.gain }
        return response
    }

    /// Linear convolution by FFT.
    public static func convolve(_ signal: [Float], _ response: [Float]) -> [Float] {
        let length = signal.count + response.count - 1
        var size = 1024
        while size < length { size *= 2 }
        guard let a = ComplexFFT(size: size, inverse: false), let b = ComplexFFT(size: size, inverse: false),
              let back = ComplexFFT(size: size, inverse: true) else { return signal }
        for (n, value) in signal.enumerated() { a.buffer[2 * n] = value }
        for (n, value) in response.enumerated() { b.buffer[2 * n] = value }
        a.execute()
        b.execute()
        for k in 0..<size {
            let ar = a.buffer[2 * k], ai = a.buffer[2 * k + 1], br = b.buffer[2 * k], bi = b.buffer[2 * k + 1]
            back.buffer[2 * k] = (ar * br - ai * bi) / Float(size)
            back.buffer[2 * k + 1] = (ar * bi + ai * br) / Float(size)
        }
        back.execute()
        return (0..<length).map { back.buffer[2 * $0] }
    }

    /// The sender's clock runs (1 + ε) times the receiver's: its frequencies
    /// arrive scaled by (1 + ε). Windowed-sinc interpolation (±32 taps, Blackman).
    public static func clockOffset(_ signal: [Float], epsilon: Double) -> [Float] {
        let taps = 32
        let count = Int(Double(signal.count) / (1 + epsilon))
        var out = [Float](repeating: 0, count: count)
        signal.withUnsafeBufferPointer { x in
            for m in 0..<count {
                let position = Double(m) * (1 + epsilon)
                let base = Int(position.rounded(.down))
                let fraction = position - Double(base)
                var sum = 0.0
                for tap in (-taps + 1)...taps {
                    let n = base + tap
                    guard n >= 0, n < x.count else { continue }
                    let t = Double(tap) - fraction
                    let sinc = abs(t) < 1e-12 ? 1 : sin(Double.pi * t) / (Double.pi * t)
                    let u = (t + Double(taps)) / Double(2 * taps)
                    let window = 0.42 - 0.5 * cos(2 * Double.pi * u) + 0.08 * cos(4 * Double.pi * u)
                    sum += Double(x[n]) * sinc * window
                }
                out[m] = Float(sum)
            }
        }
        return out
    }

    /// Music-like input: a few sustained notes with harmonics, chords changing every 0.4 s, some percussive noise.
    public static func musicLike(seconds: Double, sampleRateHz: Double, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed)
        let count = Int(seconds * sampleRateHz)
        var out = [Float](repeating: 0, count: count)
        let chordFrames = Int(0.4 * sampleRateHz)
        var start = 0
        while start < count {
            let notes = (0..<3).map { _ in 110 * pow(2, Double(Int(random.uniform() * 36)) / 12) }
            for n in start..<min(count, start + chordFrames) {
                let t = Double(n) / sampleRateHz
                let envelope = exp(-3 * Double(n - start) / sampleRateHz)
                var value = 0.0
                for note in notes {
                    for harmonic in 1...8 where note * Double(harmonic) < sampleRateHz / 2 {
                        value += sin(2 * Double.pi * note * Double(harmonic) * t) / Double(harmonic * harmonic)
                    }
                }
                let hit = n - start < Int(0.02 * sampleRateHz) ? random.gaussian() * 0.3 : 0
                out[n] = Float(0.1 * envelope * value + hit)
            }
            start += chordFrames
        }
        return out
    }

    /// Pushes `signal` through a receiver in chunks of `chunkFrames`, then finishes.
    public static func receive(_ signal: [Float], sampleRateHz: Double, profiles: [ModemProfile]?,
                        chunkFrames: Int = 1024) throws -> [ModemEvent] {
        let receiver = try ModemReceiver(sampleRateHz: sampleRateHz, profiles: profiles)
        var events: [ModemEvent] = []
        var offset = 0
        while offset < signal.count {
            let end = min(signal.count, offset + chunkFrames)
            events += signal[offset..<end].withUnsafeBufferPointer { receiver.push($0) }
            offset = end
        }
        return events + receiver.finish()
    }

    public static func messages(_ events: [ModemEvent]) -> [ModemMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    public static func incomplete(_ events: [ModemEvent]) -> [IncompleteModemMessage] {
        events.compactMap { if case .incomplete(let message) = $0 { message } else { nil } }
    }

    /// A seeded 32-byte message.
    public static func randomMessage(bytes: Int = 32, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
}
