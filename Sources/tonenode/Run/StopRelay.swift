import Synchronization

/// A stop request (a signal) that may come before there is a node to stop:
/// remembered, and passed on once a target is attached.
///
/// `request` stores the flag releasing and `isRequested` loads it acquiring,
/// so whoever sees the request also sees what the signal thread did before it;
/// with the mutex around the target, a request before, during or after `attach`
/// reaches the target at least once (it may be called twice; stopping is idempotent).
final class StopRelay: Sendable {
    private let requested = Atomic<Bool>(false)
    private let target = Mutex<(@Sendable () -> Void)?>(nil)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    @Sendable func request() {
        requested.store(true, ordering: .releasing)
        target.withLock { $0?() }
    }

    func attach(_ stop: @escaping @Sendable () -> Void) {
        target.withLock { $0 = stop }
        if isRequested { stop() }
    }
}
