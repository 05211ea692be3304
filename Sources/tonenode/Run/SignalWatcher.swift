import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT/SIGTERM/SIGHUP → a stop request (the flag); the main task then closes the client.
///
/// Signals always end the process: an orderly stop has `graceSeconds` (1.5 s)
/// from the first signal; past that (a thread blocked in libjack on a stopped
/// or dead server, in the metadata store, or in a write to a pipe nobody reads)
/// the process ends with `_exit(128 + signal)`. A second signal ends it at
/// once, from the handler itself, with the same status.
///
/// The handlers are installed with `sigaction` before `init` returns, so a
/// signal at any later moment is seen. (A `DispatchSourceSignal` registers
/// asynchronously after `SIG_IGN` has been set: a signal in between was
/// ignored and the node ran on — about 1 start-up in 150 under load.) The
/// handler only posts a semaphore (async-signal-safe); a thread of its own
/// waits on it and calls `onSignal`.
final class SignalWatcher: Sendable {
    /// Posted by the signal handler. Allocated once, never freed (a handler may run at any time).
    // nonisolated(unsafe): the pointer never changes after its one-time
    // initialisation; the semaphore it points to is made for concurrent use.
    nonisolated(unsafe) private static let posted: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    /// Signals seen so far; the handler reads and bumps it (lock-free, so async-signal-safe).
    private static let received = Atomic<Int32>(0)
    /// The first signal's number (for the exit status).
    private static let firstSignal = Atomic<Int32>(0)
    /// A child to SIGTERM before a forced exit (demo's private jackd), 0: none.
    private static let child = Atomic<Int32>(0)
    private let cancelled = Atomic<Bool>(false)
    /// The orderly stop's time limit, from the first signal.
    static let graceSeconds = 1.5

    init(onSignal: @escaping @Sendable () -> Void) {
        _ = Self.posted    // initialise before any handler can run
        let thread = Thread { [self] in
            while true {
                while sem_wait(Self.posted) != 0 && errno == EINTR {}
                if cancelled.load(ordering: .acquiring) { return }
                Self.armDeadline()
                onSignal()
            }
        }
        thread.name = "tonenode-signals"
        thread.start()
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if SignalWatcher.received.wrappingAdd(1, ordering: .relaxed).oldValue > 0 {
                    SignalWatcher.forcedExit()
                }
                SignalWatcher.firstSignal.store(number, ordering: .relaxed)
                sem_post(SignalWatcher.posted)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Starts the grace period: a thread of its own ends the process when it is
    /// over, whatever the other threads are blocked in. Once only.
    private static func armDeadline() {
        let thread = Thread {
            Thread.sleep(forTimeInterval: graceSeconds)
            forcedExit()
        }
        thread.name = "tonenode-deadline"
        thread.start()
    }

    /// Ends the process now (async-signal-safe): SIGTERM to the registered
    /// child, then `_exit(128 + the first signal)`.
    private static func forcedExit() -> Never {
        let pid = child.load(ordering: .relaxed)
        if pid > 0 { kill(pid, SIGTERM) }
        _exit(128 + firstSignal.load(ordering: .relaxed))
    }

    /// A child process that must not outlive a forced exit (it gets SIGTERM).
    static func endsWithForcedExit(_ pid: Int32) {
        child.store(pid, ordering: .relaxed)
    }

    /// Stops calling `onSignal` (the handlers stay: a late signal only posts).
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        sem_post(Self.posted)
    }
}
