import Foundation

extension Process {
    /// `run()` with signals unblocked in the calling thread while the child
    /// is spawned: a child inherits the signal mask of the thread that spawns
    /// it, and test and Swift-concurrency threads block nearly every signal.
    /// A jackd started from one ignored SIGTERM, was SIGKILLed after its grace
    /// and left its slot in JACK's shm registry taken. Left blocked: SIGPIPE,
    /// and any signal already pending (this thread must not take one meant for
    /// the process's own handling). EndToEndSupport's LiveCommand starts every
    /// child of the tests through it too.
    public func runWithSignalsUnblocked() throws {
        var pending = sigset_t()
        sigpending(&pending)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in 1..<Int32(65) where signal != SIGPIPE && sigismember(&pending, signal) == 0 {
            sigaddset(&unblock, signal)
        }
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
