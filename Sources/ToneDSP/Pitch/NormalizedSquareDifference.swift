/// McLeod's normalized square difference function of one frame, computed
/// through FFTW: the autocorrelation is the inverse real FFT of the power
/// spectrum of the frame zero-padded to its length plus the largest lag (no
/// circular wrap).
///
/// `nsdf(τ) = 2·r(τ) / m(τ)` with `r(τ) = Σ x[n]·x[n+τ]` and
/// `m(τ) = Σ x[n]² + x[n+τ]²` over the `W − τ` overlapping samples; it lies in
/// −1…1 and is 1 at the lag of a perfectly periodic frame.
///
/// With `decimation` D > 1 the function is that of the frame averaged over
/// runs of D samples (a boxcar low-pass and D:1 decimation, `load`), at lags
/// counted in decimated samples: D times fewer samples and lags, so the
/// transforms cost about a D-th. It serves to find the period's lobe; the
/// caller measures the lobe's top at the full rate (`PitchDetector`).
///
/// Worker only: one instance is owned by one thread (the buffers are reused).
public final class NormalizedSquareDifference {
    /// Frame length in (decimated) samples.
    public let frameSize: Int
    /// Largest (decimated) lag computed.
    public let maxLag: Int
    /// Full-rate samples per decimated sample: 1, 2 or 4.
    public let decimation: Int
    private let paddedSize: Int
    /// Forward and inverse real FFT of `paddedSize` samples.
    private let fft: RealFFT
    /// `nsdf[τ]` for τ = 0 … maxLag, valid after `compute`.
    public let values: UnsafeMutablePointer<Double>

    /// - Parameters:
    ///   - frameSize: full-rate frame length; a multiple of 4 · `decimation` (`load` averages in blocks that long).
    ///   - maxLag: largest lag needed, in full-rate samples.
    ///   - decimation: 1, 2 or 4.
    public init?(frameSize: Int, maxLag: Int, decimation: Int = 1, planning: FFTPlanning) {
        guard [1, 2, 4].contains(decimation), frameSize >= 4 * decimation, frameSize % (4 * decimation) == 0,
              maxLag >= 1, maxLag < frameSize else { return nil }
        let size = frameSize / decimation
        let lag = min(size - 1, (maxLag + decimation - 1) / decimation + 1)
        // Zero padding to W + maxLag keeps the lags we read free of circular
        // wrap; 1.5·W (2¹¹·3 for W = 4096) is still a fast size for FFTW.
        let paddedSize = size + lag <= size * 3 / 2 ? size * 3 / 2 : 2 * size
        guard let fft = RealFFT(size: paddedSize, planning: planning, inverse: true) else { return nil }
        self.frameSize = size
        self.maxLag = lag
        self.decimation = decimation
        self.paddedSize = paddedSize
        self.fft = fft
        values = .allocate(capacity: lag + 1)
        values.initialize(repeating: 0, count: lag + 1)
    }

    deinit { values.deallocate() }

    /// Where the frame goes in single precision before `compute` (`frameSize` samples).
    public var input: UnsafeMutablePointer<Float> { fft.input }

    /// Writes the full-rate `frame` (`frameSize · decimation` samples, mean
    /// removed) into `input`, averaged over runs of `decimation` samples;
    /// returns the energy `Σ x²` of what it wrote.
    public func load(_ frame: UnsafePointer<Float>) -> Double {
        let out = fft.input, full = frameSize * decimation
        var energies = SIMD4<Double>()
        var n = 0
        switch decimation {
        case 4:
            // Four outputs from sixteen samples: a transpose by strided sums.
            while n + 16 <= full {
                let a = UnsafeRawPointer(frame + n).loadUnaligned(as: SIMD16<Float>.self)
                let sums = (a.evenHalf.evenHalf + a.evenHalf.oddHalf + a.oddHalf.evenHalf + a.oddHalf.oddHalf) * 0.25
                UnsafeMutableRawPointer(out + n / 4).storeBytes(of: sums, as: SIMD4<Float>.self)
                let wide = SIMD4<Double>(sums)
                energies += wide * wide
                n += 16
            }
        case 2:
            while n + 8 <= full {
                let a = UnsafeRawPointer(frame + n).loadUnaligned(as: SIMD8<Float>.self)
                let sums = (a.evenHalf + a.oddHalf) * 0.5
                UnsafeMutableRawPointer(out + n / 2).storeBytes(of: sums, as: SIMD4<Float>.self)
                let wide = SIMD4<Double>(sums)
                energies += wide * wide
                n += 8
            }
        default:
            while n + 4 <= full {
                let v = UnsafeRawPointer(frame + n).loadUnaligned(as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(out + n).storeBytes(of: v, as: SIMD4<Float>.self)
                let wide = SIMD4<Double>(v)
                energies += wide * wide
                n += 4
            }
        }
        return energies.sum()
    }

    /// Computes `values` for the frame in `input` (mean removed), whose energy `Σ x²` is `energy`.
    public func compute(energy: Double) {
        let w = frameSize, padded = fft.input, bins = fft.bins
        // m(τ) first: the inverse transform overwrites the frame.
        var m = 2 * energy
        values[0] = m
        for lag in 1...maxLag {
            let head = Double(padded[lag - 1]), tail = Double(padded[w - lag])
            m -= head * head + tail * tail
            values[lag] = m
        }
        (padded + w).update(repeating: 0, count: paddedSize - w)
        fft.forward()
        for k in 0...(paddedSize / 2) {
            let re = bins[2 * k], im = bins[2 * k + 1]
            bins[2 * k] = re * re + im * im
            bins[2 * k + 1] = 0
        }
        fft.inverse()
        // The inverse is unnormalised: r(τ) = padded[τ] / paddedSize. Four
        // lags a step (the divisions cost most), each with the same operations
        // as one at a time, so the same values.
        let scale = 1 / Double(paddedSize)
        let count = maxLag + 1
        var lag = 0
        while lag + 4 <= count {
            let m = UnsafeRawPointer(values + lag).loadUnaligned(as: SIMD4<Double>.self)
            let r = SIMD4<Double>(UnsafeRawPointer(padded + lag).loadUnaligned(as: SIMD4<Float>.self))
            var nsdf = 2 * r * scale / m
            nsdf.replace(with: 0, where: .!(m .> 1e-30))
            UnsafeMutableRawPointer(values + lag).storeBytes(of: nsdf, as: SIMD4<Double>.self)
            lag += 4
        }
        while lag < count {
            let m = values[lag]
            values[lag] = m > 1e-30 ? 2 * Double(padded[lag]) * scale / m : 0
            lag += 1
        }
    }
}
