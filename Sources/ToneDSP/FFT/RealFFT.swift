import CFFTW

/// A single-precision real FFT of one size: forward (r2c), and inverse (c2r)
/// when asked for. One of the FFT family (see `FFTPlanner`).
///
/// Worker only: one instance is owned by one thread (the buffers are reused).
/// Both directions are unnormalised, as FFTW's: forward then inverse scales by `size`.
public final class RealFFT {
    /// Transform length in samples.
    public let size: Int
    /// Real samples (`size`): input of the forward transform, output of the inverse.
    public let input: UnsafeMutablePointer<Float>
    /// Complex bins `0 … size/2`, interleaved re, im: output of the forward
    /// transform, input of the inverse (which overwrites them).
    public let bins: UnsafeMutablePointer<Float>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan?

    /// Number of complex bins (`size/2 + 1`).
    public var binCount: Int { size / 2 + 1 }

    /// - Parameters:
    ///   - size: any positive length; powers of two are fastest.
    ///   - inverse: also plan the inverse (c2r) transform.
    public init?(size: Int, planning: FFTPlanning = .measure, inverse: Bool = false) {
        guard size >= 2, size <= Int(Int32.max), let input = fftwf_alloc_real(size) else { return nil }
        guard let complex = fftwf_alloc_complex(size / 2 + 1) else {
            fftwf_free(input)
            return nil
        }
        let made = FFTPlanner.makePlans({
            let forward = fftwf_plan_dft_r2c_1d(Int32(size), input, complex, planning.flags)
            guard inverse else { return [forward] }
            return [forward, fftwf_plan_dft_c2r_1d(Int32(size), complex, input, planning.flags)]
        }, destroy: fftwf_destroy_plan, planning: planning)
        guard let plans = made else {
            fftwf_free(input)
            fftwf_free(complex)
            return nil
        }
        self.size = size
        self.input = input
        forwardPlan = plans[0]
        inversePlan = inverse ? plans[1] : nil
        // safe: fftwf_complex is two Floats laid out contiguously.
        bins = UnsafeMutableRawPointer(complex).bindMemory(to: Float.self, capacity: 2 * (size / 2 + 1))
        input.initialize(repeating: 0, count: size)
    }

    deinit {
        FFTPlanner.destroy([forwardPlan] + (inversePlan.map { [$0] } ?? []), with: fftwf_destroy_plan)
        fftwf_free(input)
        fftwf_free(UnsafeMutableRawPointer(bins))
    }

    /// `input` → `bins`.
    public func forward() { fftwf_execute(forwardPlan) }

    /// `bins` → `input`. Only for an instance made with `inverse: true`.
    public func inverse() {
        guard let inversePlan else { preconditionFailure("RealFFT made without its inverse") }
        fftwf_execute(inversePlan)
    }

    /// Transforms `input` and writes `|X_k|²` for `k = 0 … size/2` into `power`.
    public func powerSpectrum(into power: UnsafeMutablePointer<Double>) {
        forward()
        for k in 0...(size / 2) {
            let re = Double(bins[2 * k])
            let im = Double(bins[2 * k + 1])
            power[k] = re * re + im * im
        }
    }
}
