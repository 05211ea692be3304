import Dispatch
import Foundation
import Synchronization

/// Runs JACK metadata calls (pretty names) on a thread of its own, one job
/// at a time, and waits for each job at most a deadline.
///
/// Why: jack2 keeps metadata in a Berkeley DB environment shared by every
/// client of the user (`/dev/shm/jack_db-UID`); a lock held there by a wedged
/// or stopped process blocks `jack_set_property` and `jack_remove_property`
/// for good, and nothing in jack2 breaks it. Pretty names are a nicety, so a
/// job past its deadline is left behind: the caller goes on, one warning line
/// is given (once per process), and later jobs are skipped until the stuck
/// one returns. A job that may still run holds what it uses (see
/// `JackClient.close`, which hands its `jack_client_close` to this queue then).
///
/// Thread ownership: `run` and `enqueue` from any thread; the jobs run on the
/// queue's thread, in the order given.
final class MetadataQueue: Sendable {
    static let shared = MetadataQueue()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)
    /// Jobs that overran their deadline and have not returned yet.
    private let stuckJobs = Atomic<Int>(0)
    private let warned = Atomic<Bool>(false)
    /// Where the one warning line goes (tonenode: stderr). Nil: nowhere.
    let warningSink = Mutex<(@Sendable (String) -> Void)?>(nil)

    private init() {
        let thread = Thread { [self] in
            while true {
                wake.wait()
                let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "tonenode-metadata"
        thread.start()
    }

    /// Whether a job overran its deadline and still blocks the queue's thread.
    var isStuck: Bool { stuckJobs.load(ordering: .acquiring) > 0 }

    /// How a job went.
    enum Outcome { case done, late, skipped }

    /// Runs `job` on the queue's thread and waits for it at most `deadline`:
    /// `.done` in time, `.late` still running (it may finish later), or
    /// `.skipped` (never run: an earlier job is stuck).
    @discardableResult
    func run(deadline: Duration, _ job: @escaping @Sendable () -> Void) -> Outcome {
        guard !isStuck else { return .skipped }
        // finished / timedOut, under one lock so the job and the waiter agree on who counts it stuck.
        let state = JobState()
        let done = DispatchSemaphore(value: 0)
        enqueue { [self] in
            job()
            let wasTimedOut = state.flags.withLock { state in
                state.finished = true
                return state.timedOut
            }
            if wasTimedOut { stuckJobs.subtract(1, ordering: .releasing) }
            done.signal()
        }
        let nanoseconds = deadline.components.seconds * 1_000_000_000 + deadline.components.attoseconds / 1_000_000_000
        if done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success { return .done }
        let nowStuck = state.flags.withLock { state in
            if state.finished { return false }
            state.timedOut = true
            return true
        }
        guard nowStuck else { return .done }
        stuckJobs.add(1, ordering: .releasing)
        if !warned.exchange(true, ordering: .acquiringAndReleasing) {
            warningSink.withLock { $0 }?(
                "warning: JACK metadata is not answering (pretty names skipped); "
                    + "another client may hold its lock in /dev/shm/jack_db-\(getuid())")
        }
        return .late
    }

    /// Waits at most `deadline` for every job queued so far to have run
    /// (a late removal or a deferred close at exit). Returns whether they did.
    @discardableResult
    func drain(deadline: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        enqueue { done.signal() }
        let nanoseconds = deadline.components.seconds * 1_000_000_000 + deadline.components.attoseconds / 1_000_000_000
        return done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }

    /// Queues `job` after every job queued before it, without waiting.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        wake.signal()
    }
}

/// Whether one job has finished and whether its waiter gave up on it.
private final class JobState: Sendable {
    let flags = Mutex<(finished: Bool, timedOut: Bool)>((false, false))
}
