/// McLeod's normalized square difference function of one frame, computed
/// through FFTW: the autocorrelation is the inverse real FFT of the power
/// spectrum of the frame zero-padded to twice its length (no circular wrap).
///
/// `nsdf(τ) = 2·r(τ) / m(τ)` with `r(τ) = Σ x[n]·x[n+τ]` and
/// `m(τ) = Σ x[n]² + x[n+τ]²` over the `W − τ` overlapping samples; it lies in
/// −1…1 and is 1 at the lag of a perfectly periodic frame.
///
/// Worker only: one instance is owned by one thread (the buffers are reused).
public final class NormalizedSquareDifference {
    /// Frame length in samples.
    public let frameSize: Int
    /// Largest lag computed.
    public let maxLag: Int
    private let paddedSize: Int
    /// Forward and inverse real FFT of `paddedSize` samples.
    private let fft: RealFFT
    /// `nsdf[τ]` for τ = 0 … maxLag, valid after `compute`.
    public let values: UnsafeMutablePointer<Double>

    public init?(frameSize: Int, maxLag: Int, planning: FFTPlanning) {
        guard frameSize >= 4, maxLag >= 1, maxLag < frameSize else { return nil }
        // Zero padding to W + maxLag keeps the lags we read free of circular
        // wrap; 1.5·W (2¹¹·3 for W = 4096) is still a fast size for FFTW.
        let paddedSize = frameSize + maxLag <= frameSize * 3 / 2 ? frameSize * 3 / 2 : 2 * frameSize
        guard let fft = RealFFT(size: paddedSize, planning: planning, inverse: true) else { return nil }
        self.frameSize = frameSize
        self.maxLag = maxLag
        self.paddedSize = paddedSize
        self.fft = fft
        values = .allocate(capacity: maxLag + 1)
        values.initialize(repeating: 0, count: maxLag + 1)
    }

    deinit { values.deallocate() }

    /// Where the caller writes the frame in single precision before `compute` (`frameSize` samples).
    public var input: UnsafeMutablePointer<Float> { fft.input }

    /// Computes `values` for `frame` (its mean already removed, and also
    /// written to `input`), whose energy `Σ x²` is `energy`.
    public func compute(_ frame: UnsafePointer<Double>, energy: Double) {
        let w = frameSize, padded = fft.input, bins = fft.bins
        (padded + w).update(repeating: 0, count: paddedSize - w)
        fft.forward()
        for k in 0...(paddedSize / 2) {
            let re = bins[2 * k], im = bins[2 * k + 1]
            bins[2 * k] = re * re + im * im
            bins[2 * k + 1] = 0
        }
        fft.inverse()
        // The inverse is unnormalised: r(τ) = padded[τ] / paddedSize.
        let scale = 1 / Double(paddedSize)
        var m = 2 * energy
        for lag in 0...maxLag {
            if lag > 0 {
                let head = frame[lag - 1], tail = frame[w - lag]
                m -= head * head + tail * tail
            }
            values[lag] = m > 1e-30 ? 2 * Double(padded[lag]) * scale / m : 0
        }
    }
}
