import Foundation
import ToneDSP

/// Estimates a room's impulse response from samples the receiver knows were
/// sent, and undoes it.
///
/// In a room whose reverberant tail carries as much energy as the direct
/// sound and lasts longer than any affordable guard interval, every symbol is
/// smeared into the next ones. Here the receiver models the received samples
/// as the response convolved with what was sent: it fits the response by least
/// squares (conjugate gradients, with FFT convolutions) over the stretch where
/// it knows the sent samples — the preamble and the reference symbol, or,
/// once a frame has been decoded tentatively, the whole frame — and then
/// divides it out of the received spectrum (a Wiener deconvolution over the
/// band). What is left is the sent frame, delayed by `leadFrames`.
///
/// Worker only. Buffers are reused from call to call.
final class ChannelEqualizer {
    let sampleRateHz: Double
    /// Response taps before the expected arrival, for timing errors of the preamble.
    let leadFrames: Int
    /// Noise-to-signal ratio of the Wiener deconvolution, relative to the response's mean power in the band.
    static let regularisation: Float = 0.03
    /// Conjugate-gradient iterations; the fit changes little after about 20.
    static let iterations = 12

    private var transforms: [Int: (forward: ComplexFFT, inverse: ComplexFFT)] = [:]

    init(sampleRateHz: Double, leadSeconds: Double = 0.003) {
        self.sampleRateHz = sampleRateHz
        leadFrames = Int((leadSeconds * sampleRateHz).rounded(.up))
    }

    /// The response `h` (`responseFrames` taps, tap `leadFrames` at delay 0) that
    /// best explains `received[0..<leadFrames + observedFrames]` as `h ∗ sent`.
    /// - Parameters:
    ///   - sent: the known sent samples; `sent[0]` went out `leadFrames` before `received[leadFrames]` arrived, on time.
    ///   - received: starts `leadFrames` before the sent samples' expected arrival.
    func estimateResponse(sent: [Float], received: UnsafePointer<Float>, observedFrames: Int,
                          responseFrames: Int) -> [Float]? {
        let lead = leadFrames
        let taps = responseFrames + lead
        let size = Self.fftSize(atLeast: lead + observedFrames + taps + 1)
        guard let (forward, inverse) = transforms(size) else { return nil }
        // The sent spectrum, kept for every product.
        var sentSpectrum = [Float](repeating: 0, count: 2 * size)
        // Later sent samples cannot reach the observed stretch; cut them so nothing wraps around.
        load(sent.prefix(lead + observedFrames), into: forward)
        forward.execute()
        sentSpectrum.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: forward.buffer, count: 2 * size) }
        let observedRange = lead..<min(size, lead + observedFrames)
        let scale = 1 / Float(size)

        // y = mask(h ∗ sent); returns Aᴴy (the first `taps` samples of y ⋆ sent).
        func normal(_ h: [Float]) -> [Float] {
            load(h[...], into: forward)
            forward.execute()
            multiply(forward.buffer, by: sentSpectrum, conjugate: false, into: inverse.buffer, scale: scale)
            inverse.execute()
            var masked = [Float](repeating: 0, count: size)
            for n in observedRange { masked[n] = inverse.buffer[2 * n] }
            return correlate(masked[...], sentSpectrum: sentSpectrum, forward: forward, inverse: inverse, taps: taps)
        }

        var observed = [Float](repeating: 0, count: size)
        for n in observedRange { observed[n] = received[n] }
        let b = correlate(observed[...], sentSpectrum: sentSpectrum, forward: forward, inverse: inverse, taps: taps)
        var h = [Float](repeating: 0, count: taps)
        var residual = b
        var direction = b
        var residualNorm = Self.dot(residual, residual)
        let stopNorm = 1e-10 * residualNorm
        guard residualNorm > 0, residualNorm.isFinite else { return nil }
        for _ in 0..<Self.iterations {
            let product = normal(direction)
            let curvature = Self.dot(direction, product)
            guard curvature > 0, curvature.isFinite else { break }
            let step = Float(residualNorm / curvature)
            for n in 0..<taps {
                h[n] += step * direction[n]
                residual[n] -= step * product[n]
            }
            let next = Self.dot(residual, residual)
            if next < stopNorm { break }
            let beta = Float(next / residualNorm)
            for n in 0..<taps { direction[n] = residual[n] + beta * direction[n] }
            residualNorm = next
        }
        return h.allSatisfy(\.isFinite) ? h : nil
    }

    /// `received` (`count` samples, starting `leadFrames` before the sent samples'
    /// expected arrival) with `response` divided out between `lowHz` and `highHz`;
    /// element n of the result lines up with `sent[n]` of `estimateResponse`.
    func deconvolve(_ received: UnsafePointer<Float>, count: Int, response: [Float],
                    lowHz: Double, highHz: Double) -> [Float]? {
        let size = Self.fftSize(atLeast: count + response.count + 1)
        guard let (forward, inverse) = transforms(size) else { return nil }
        load(response[...], into: forward)
        forward.execute()
        var responseSpectrum = [Float](repeating: 0, count: 2 * size)
        responseSpectrum.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: forward.buffer, count: 2 * size) }
        load(UnsafeBufferPointer(start: received, count: count)[...], into: forward)
        forward.execute()
        let binHz = sampleRateHz / Double(size)
        let inBand: (Int) -> Bool = { k in
            let frequencyHz = Double(k <= size / 2 ? k : size - k) * binHz
            return frequencyHz >= lowHz && frequencyHz <= highHz
        }
        var power = 0.0
        var bins = 0
        for k in 0..<size where inBand(k) {
            power += Double(responseSpectrum[2 * k] * responseSpectrum[2 * k] + responseSpectrum[2 * k + 1] * responseSpectrum[2 * k + 1])
            bins += 1
        }
        guard bins > 0, power > 0 else { return nil }
        let floor = Self.regularisation * Float(power / Double(bins))
        let scale = 1 / Float(size)
        for k in 0..<size {
            guard inBand(k) else {
                inverse.buffer[2 * k] = 0
                inverse.buffer[2 * k + 1] = 0
                continue
            }
            let hr = responseSpectrum[2 * k], hi = responseSpectrum[2 * k + 1]
            let rr = forward.buffer[2 * k], ri = forward.buffer[2 * k + 1]
            let gain = scale / (hr * hr + hi * hi + floor)
            // R · conj(H) / (|H|² + floor)
            inverse.buffer[2 * k] = (rr * hr + ri * hi) * gain
            inverse.buffer[2 * k + 1] = (ri * hr - rr * hi) * gain
        }
        inverse.execute()
        let out = (0..<count).map { inverse.buffer[2 * $0] }
        return out.allSatisfy(\.isFinite) ? out : nil
    }

    // MARK: - Pieces

    /// The first `taps` samples of the cross-correlation of `signal` with the sent samples.
    private func correlate(_ signal: ArraySlice<Float>, sentSpectrum: [Float], forward: ComplexFFT,
                           inverse: ComplexFFT, taps: Int) -> [Float] {
        load(signal, into: forward)
        forward.execute()
        multiply(forward.buffer, by: sentSpectrum, conjugate: true, into: inverse.buffer, scale: 1 / Float(forward.size))
        inverse.execute()
        return (0..<taps).map { inverse.buffer[2 * $0] }
    }

    private func multiply(_ a: UnsafeMutablePointer<Float>, by b: [Float], conjugate: Bool,
                          into out: UnsafeMutablePointer<Float>, scale: Float) {
        let sign: Float = conjugate ? -1 : 1
        b.withUnsafeBufferPointer { b in
            for k in 0..<(b.count / 2) {
                let ar = a[2 * k], ai = a[2 * k + 1], br = b[2 * k], bi = sign * b[2 * k + 1]
                out[2 * k] = (ar * br - ai * bi) * scale
                out[2 * k + 1] = (ar * bi + ai * br) * scale
            }
        }
    }

    private func load<C: Collection>(_ values: C, into fft: ComplexFFT) where C.Element == Float {
        fft.buffer.update(repeating: 0, count: 2 * fft.size)
        for (n, value) in values.prefix(fft.size).enumerated() { fft.buffer[2 * n] = value }
    }

    private func transforms(_ size: Int) -> (forward: ComplexFFT, inverse: ComplexFFT)? {
        if let pair = transforms[size] { return pair }
        guard let forward = ComplexFFT(size: size, inverse: false),
              let inverse = ComplexFFT(size: size, inverse: true) else { return nil }
        transforms[size] = (forward, inverse)
        return (forward, inverse)
    }

    private static func fftSize(atLeast count: Int) -> Int {
        var size = 1024
        while size < count { size *= 2 }
        return size
    }

    private static func dot(_ a: [Float], _ b: [Float]) -> Double {
        var sum = 0.0
        for n in a.indices { sum += Double(a[n]) * Double(b[n]) }
        return sum
    }
}
