import CFFTW
import Synchronization

/// FFTW's double-precision planner has its own global state (separate from
/// the single-precision one `RealFFT` guards): every plan creation and
/// destruction of `DoubleFFT` goes through this lock.
private let doublePlannerLock = Mutex<Void>(())

/// A double-precision real FFT of one size, forward (r2c) and inverse (c2r),
/// for offline measurement maths (long convolutions, transfer functions),
/// where single precision would limit sub-sample latency estimates.
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

    public init?(size: Int) {
        guard size >= 2, size <= Int(Int32.max), let real = fftw_alloc_real(size) else { return nil }
        guard let complex = fftw_alloc_complex(size / 2 + 1) else {
            fftw_free(real)
            return nil
        }
        nonisolated(unsafe) var plans: (fftw_plan?, fftw_plan?) = (nil, nil)
        doublePlannerLock.withLock { _ in
            let flags = UInt32(FFTW_ESTIMATE)
            plans.0 = fftw_plan_dft_r2c_1d(Int32(size), real, complex, flags)
            plans.1 = fftw_plan_dft_c2r_1d(Int32(size), complex, real, flags)
        }
        guard let forward = plans.0, let inverse = plans.1 else {
            doublePlannerLock.withLock { _ in
                if let plan = plans.0 { fftw_destroy_plan(plan) }
                if let plan = plans.1 { fftw_destroy_plan(plan) }
            }
            fftw_free(real)
            fftw_free(complex)
            return nil
        }
        self.size = size
        self.real = real
        // safe: fftw_complex is two contiguous doubles (re, im).
        bins = UnsafeMutableRawPointer(complex).bindMemory(to: Double.self, capacity: 2 * (size / 2 + 1))
        forwardPlan = forward
        inversePlan = inverse
        real.initialize(repeating: 0, count: size)
        bins.initialize(repeating: 0, count: 2 * (size / 2 + 1))
    }

    deinit {
        doublePlannerLock.withLock { _ in
            fftw_destroy_plan(forwardPlan)
            fftw_destroy_plan(inversePlan)
        }
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
