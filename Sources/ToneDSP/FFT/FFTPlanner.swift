import CFFTW
import Synchronization

/// The one gate to FFTW's planners. FFTW's planner is not thread-safe (each
/// precision keeps global state), so every plan creation and destruction in
/// the process goes through this lock; executing a plan needs none.
///
/// The FFT family (`RealFFT`, `ComplexFFT`, `DoubleFFT`) shares one shape:
/// a final class of one size that owns FFTW-aligned buffers (allocated with
/// FFTW's own allocator, so plans may use SIMD) and its plans, made once in
/// `init` through `makePlans` and destroyed in `deinit` through `destroy`.
/// Each instance is used by one thread at a time (the buffers are reused).
enum FFTPlanner {
    /// The lock, and the precisions whose wisdom file has been read.
    private static let lock = Mutex<Set<FFTWisdom>>([])

    /// Makes a wrapper's plans under the lock.
    /// - Parameters:
    ///   - make: creates the plans, in order (the order matters with
    ///     `FFTW_MEASURE`, which learns from earlier plans).
    ///   - destroy: the precision's `fftw…_destroy_plan`.
    ///   - planning, wisdom: with `.measure`, the precision's wisdom file
    ///     (`FFTWisdom`) is read first (once per process) and written back
    ///     when measuring taught FFTW something new.
    /// - Returns: every plan, or nil when FFTW made not all of them (those it
    ///   made are destroyed again; the caller frees its buffers).
    static func makePlans(_ make: () -> [OpaquePointer?], destroy: (OpaquePointer) -> Void,
                          planning: FFTPlanning = .estimate, wisdom: FFTWisdom = .single) -> [OpaquePointer]? {
        nonisolated(unsafe) var made: [OpaquePointer?] = []
        lock.withLock { loaded in
            guard planning == .measure else {
                made = make()
                return
            }
            if loaded.insert(wisdom).inserted { wisdom.load() }
            let before = wisdom.exported()
            made = make()
            if wisdom.exported() != before { wisdom.save() }
        }
        let plans = made.compactMap { $0 }
        guard plans.count == made.count else {
            self.destroy(plans, with: destroy)
            return nil
        }
        return plans
    }

    /// Destroys plans under the lock.
    static func destroy(_ plans: [OpaquePointer], with destroy: (OpaquePointer) -> Void) {
        lock.withLock { _ in plans.forEach(destroy) }
    }
}

/// How hard FFTW searches for a fast plan.
public enum FFTPlanning: Sendable {
    /// Quick to make; used where start-up time matters more (tests).
    case estimate
    /// Measures candidate plans (a fraction of a second or more, once per
    /// machine and size: `FFTWisdom` keeps the result), then runs faster.
    case measure

    var flags: UInt32 {
        switch self {
        case .estimate: UInt32(FFTW_ESTIMATE)
        case .measure: UInt32(FFTW_MEASURE)
        }
    }
}
