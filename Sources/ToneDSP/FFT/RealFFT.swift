import CFFTW
import Synchronization

/// FFTW's planner is not thread-safe: every plan creation and destruction in
/// the process goes through this lock. Executing a plan is thread-safe.
let fftwPlannerLock = Mutex<Void>(())

/// How hard FFTW searches for a fast plan.
public enum FFTPlanning: Sendable {
    /// Quick to make; used where start-up time matters more (tests).
    case estimate
    /// Measures candidate plans (a fraction of a second), then runs faster.
    case measure

    var flags: UInt32 {
        switch self {
        case .estimate: UInt32(FFTW_ESTIMATE)
        case .measure: UInt32(FFTW_MEASURE)
        }
    }
}

/// A single-precision real-to-complex FFT of one size, planned once.
///
/// Worker only: one instance is owned by one thread (the buffers are reused).
public final class RealFFT {
    /// Transform length in samples.
    public let size: Int
    /// FFTW-aligned input buffer (`size` samples).
    public let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// - Parameter size: any positive length; powers of two are fastest.
    public init?(size: Int, planning: FFTPlanning = .measure) {
        guard size >= 2, size <= Int(Int32.max), let input = fftwf_alloc_real(size) else { return nil }
        guard let output = fftwf_alloc_complex(size / 2 + 1) else {
            fftwf_free(input)
            return nil
        }
        nonisolated(unsafe) var made: fftwf_plan?
        fftwPlannerLock.withLock { _ in
            made = fftwf_plan_dft_r2c_1d(Int32(size), input, output, planning.flags)
        }
        guard let plan = made else {
            fftwf_free(input)
            fftwf_free(output)
            return nil
        }
        self.size = size
        self.input = input
        self.output = output
        self.plan = plan
        input.initialize(repeating: 0, count: size)
    }

    deinit {
        fftwPlannerLock.withLock { _ in fftwf_destroy_plan(plan) }
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Transforms `input` and writes `|X_k|²` for `k = 0 … size/2` into `power`.
    public func powerSpectrum(into power: UnsafeMutablePointer<Double>) {
        fftwf_execute(plan)
        for k in 0...(size / 2) {
            let re = Double(output[k].0)
            let im = Double(output[k].1)
            power[k] = re * re + im * im
        }
    }

    /// Transforms `input`; the complex bins are handed to `body` (do not escape the pointer).
    public func transform<R>(_ body: (UnsafePointer<fftwf_complex>) -> R) -> R {
        fftwf_execute(plan)
        return body(output)
    }
}
