import CFFTW

/// A single-precision complex FFT of one size and direction, in place.
/// One of the FFT family (see `FFTPlanner`).
///
/// Worker only: one instance is owned by one thread (the buffer is reused).
/// The transform is unnormalised, as FFTW's: forward then backward scales by `size`.
public final class ComplexFFT {
    /// Transform length.
    public let size: Int
    /// FFTW-aligned in-place buffer of `size` complex values, interleaved re, im.
    public let buffer: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan

    /// - Parameters:
    ///   - size: any positive length; sizes with small prime factors are fastest.
    ///   - inverse: `true` for e^{+j…} (FFTW_BACKWARD).
    public init?(size: Int, inverse: Bool, planning: FFTPlanning = .estimate) {
        guard size >= 2, size <= Int(Int32.max), let raw = fftwf_alloc_complex(size) else { return nil }
        let made = FFTPlanner.makePlans({
            [fftwf_plan_dft_1d(Int32(size), raw, raw, inverse ? FFTW_BACKWARD : FFTW_FORWARD, planning.flags)]
        }, destroy: fftwf_destroy_plan, planning: planning)
        guard let plans = made else {
            fftwf_free(raw)
            return nil
        }
        self.size = size
        plan = plans[0]
        // safe: fftwf_complex is two Floats laid out contiguously.
        buffer = UnsafeMutableRawPointer(raw).bindMemory(to: Float.self, capacity: 2 * size)
        buffer.initialize(repeating: 0, count: 2 * size)
    }

    deinit {
        FFTPlanner.destroy([plan], with: fftwf_destroy_plan)
        fftwf_free(UnsafeMutableRawPointer(buffer))
    }

    /// Transforms `buffer` in place.
    public func execute() {
        fftwf_execute(plan)
    }
}
