import CFFTW

/// Subnormal floats are noise far below any audio's floor, and on x86 every
/// operation on them is very slow. ToneNode's analysis threads flush them.
public enum Denormals {
    /// Flush subnormal results to zero and read subnormal inputs as zero on
    /// the calling thread (the worker, `analyze`). Per thread; call at its start.
    public static func flushToZeroOnThisThread() { setFlushing(true) }

    /// Turns flushing on or off for the calling thread (benchmarks compare both).
    public static func setFlushing(_ on: Bool) { tn_set_denormal_flushing(on ? 1 : 0) }
}
