import Foundation
import Synchronization
import ToneJack

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT/SIGTERM/SIGHUP for every command: installed once, by the root
/// command before it dispatches, so no command can be without it.
///
/// A signal ends the process within 2 s whatever a thread is blocked in
/// (libjack on a stopped or dead server, the metadata store, a write to a pipe
/// nobody reads):
/// - the orderly stop comes first. A command that ends cleanly on a signal
///   (`run`, `receive`, `link`, `demo`) says so with `endsOnSignal`, giving the
///   stop to call; it then ends as usual (status 0 for a clean stop). Any other
///   command polls `isStopRequested` where it waits (`measure`, `audit`,
///   `send`), unwinds, closes its client and exits with `128 + signal`
///   (`ToneNodeCommand.end`). With no JACK client open and no stop to call,
///   there is nothing to shut down in order: `_exit(128 + signal)` at once.
/// - `graceSeconds` (1.5 s) after the first signal, `_exit(128 + signal)`.
/// - a second signal: `_exit(128 + first signal)` at once, from the handler.
///
/// The handlers are installed with `sigaction` before `install` returns, so a
/// signal at any later moment is seen. (A `DispatchSourceSignal` registers
/// asynchronously after `SIG_IGN` has been set: a signal in between was
/// ignored and the node ran on — about 1 start-up in 150 under load.) The
/// handler only posts a semaphore (async-signal-safe); a thread of its own
/// waits on it, arms the deadline and calls the stops.
enum SignalWatcher {
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
    /// Set by the signal thread once it has seen the first signal (releasing).
    private static let requested = Atomic<Bool>(false)
    /// The orderly stops of a command that ends cleanly on a signal; nil: the
    /// command has none (a signal is an interruption: status 128 + signal).
    private static let stops = Mutex<[@Sendable () -> Void]?>(nil)
    /// The orderly stop's time limit, from the first signal.
    static let graceSeconds = 1.5

    /// Installs the handlers and starts the signal thread. Once, before the command runs.
    static func install() {
        _ = posted    // initialise before any handler can run
        TerminalLine.prepare()
        let thread = Thread {
            while sem_wait(posted) != 0 && errno == EINTR {}
            requested.store(true, ordering: .releasing)
            armDeadline()
            let orderly = stops.withLock { $0 }
            if orderly == nil && JackClient.openClients == 0 { forcedExit() }
            orderly?.forEach { $0() }
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

    /// Whether a signal has come (whoever sees it also sees what the signal
    /// thread did before: the stops it called).
    static var isStopRequested: Bool { requested.load(ordering: .acquiring) }

    /// The command ends cleanly on a signal: `stop` (if any) is called on the
    /// signal thread at the first signal, or at once when one came already. May
    /// be called several times (each stop is kept); stopping must be idempotent.
    static func endsOnSignal(_ stop: (@Sendable () -> Void)? = nil) {
        stops.withLock { $0 = ($0 ?? []) + (stop.map { [$0] } ?? []) }
        if isStopRequested { stop?() }
    }

    /// The status a command that was interrupted (a signal came and it has no
    /// clean stop of its own) ends with: 128 + the signal; nil otherwise.
    static var interruptedStatus: Int32? {
        guard isStopRequested, stops.withLock({ $0 == nil }) else { return nil }
        return 128 + firstSignal.load(ordering: .relaxed)
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
        TerminalLine.restore()
        let pid = child.load(ordering: .relaxed)
        if pid > 0 { kill(pid, SIGTERM) }
        _exit(128 + firstSignal.load(ordering: .relaxed))
    }

    /// A child process that must not outlive a forced exit (it gets SIGTERM).
    static func endsWithForcedExit(_ pid: Int32) {
        child.store(pid, ordering: .relaxed)
    }
}
