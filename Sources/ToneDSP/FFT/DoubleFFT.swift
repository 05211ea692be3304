import CFFTW

/// A double-precision real FFT of one size, forward (r2c) and inverse (c2r),
/// for offline measurement maths (long convolutions, transfer functions),
/// where single precision would limit sub-sample latency estimates.
/// One of the FFT family (see `FFTPlanner`); unlike its single-precision
/// siblings, `inverse` normalises.
///
/// Worker only: one instance is owned by one thread (the buffers are reused).
public final class DoubleFFT {
    /// Transform length in samples.
    public let size: Int
    /// Real samples (`size`): input of `forward`, output of `inverse`.
    public let real: UnsafeMutablePointer<Double>
    /// Complex bins `0 … size/2`, interleaved re, im: output of `forward`, input of `inverse`.
    public let bins: UnsafeMutablePointer<Double>
    private let forwardPlan: fftw_plan
    private let inversePlan: fftw_plan

    /// Number of complex bins (`size/2 + 1`).
    public var binCount: Int { size / 2 + 1 }

    public init?(size: Int, planning: FFTPlanning = .estimate) {
        guard size >= 2, size <= Int(Int32.max), let real = fftw_alloc_real(size) else { return nil }
        guard let complex = fftw_alloc_complex(size / 2 + 1) else {
            fftw_free(real)
            return nil
        }
        let made = FFTPlanner.makePlans({
            [fftw_plan_dft_r2c_1d(Int32(size), real, complex, planning.flags),
             fftw_plan_dft_c2r_1d(Int32(size), complex, real, planning.flags)]
        }, destroy: fftw_destroy_plan, planning: planning, wisdom: .double)
        guard let plans = made else {
            fftw_free(real)
            fftw_free(complex)
            return nil
        }
        self.size = size
        self.real = real
        // safe: fftw_complex is two contiguous doubles (re, im).
        bins = UnsafeMutableRawPointer(complex).bindMemory(to: Double.self, capacity: 2 * (size / 2 + 1))
        forwardPlan = plans[0]
        inversePlan = plans[1]
        real.initialize(repeating: 0, count: size)
        bins.initialize(repeating: 0, count: 2 * (size / 2 + 1))
    }

    deinit {
        FFTPlanner.destroy([forwardPlan, inversePlan], with: fftw_destroy_plan)
        fftw_free(real)
        fftw_free(bins)
    }

    /// `real` → `bins` (unnormalised).
    public func forward() { fftw_execute(forwardPlan) }

    /// `bins` → `real`, scaled by `1/size` so `inverse(forward(x)) == x`.
    /// FFTW's c2r overwrites `bins`.
    public func inverse() {
        fftw_execute(inversePlan)
        let scale = 1 / Double(size)
        for index in 0..<size { real[index] *= scale }
    }

    /// Forward transform of `samples` zero-padded to `size`; returns the bins as complex pairs.
    public func spectrum(of samples: UnsafeBufferPointer<Double>) -> [Complex] {
        let count = min(samples.count, size)
        for index in 0..<size { real[index] = index < count ? samples[index] : 0 }
        forward()
        return (0..<binCount).map { Complex(bins[2 * $0], bins[2 * $0 + 1]) }
    }

    /// Inverse transform of `spectrum` (`binCount` bins); returns `size` real samples.
    public func signal(from spectrum: [Complex]) -> [Double] {
        for k in 0..<binCount {
            let value = k < spectrum.count ? spectrum[k] : Complex(0, 0)
            bins[2 * k] = value.re
            bins[2 * k + 1] = value.im
        }
        inverse()
        return Array(UnsafeBufferPointer(start: real, count: size))
    }

    /// The smallest power of two at least `count`.
    public static func size(atLeast count: Int) -> Int {
        var size = 2
        while size < count { size <<= 1 }
        return size
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
