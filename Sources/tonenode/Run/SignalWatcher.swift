import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT/SIGTERM/SIGHUP → a stop request (the flag); the main task then closes the client.
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
    private let cancelled = Atomic<Bool>(false)

    init(onSignal: @escaping @Sendable () -> Void) {
        _ = Self.posted    // initialise before any handler can run
        let thread = Thread { [self] in
            while true {
                while sem_wait(Self.posted) != 0 && errno == EINTR {}
                if cancelled.load(ordering: .acquiring) { return }
                onSignal()
            }
        }
        thread.name = "tonenode-signals"
        thread.start()
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in sem_post(SignalWatcher.posted) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Stops calling `onSignal` (the handlers stay: a late signal only posts).
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        sem_post(Self.posted)
    }
}
