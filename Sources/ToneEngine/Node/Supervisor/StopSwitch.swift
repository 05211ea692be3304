import Synchronization

/// A stop request that reaches whichever node is running.
final class StopSwitch: Sendable {
    private let requested = Atomic<Bool>(false)
    private let current = Mutex<(@Sendable () -> Void)?>(nil)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    func attach(_ stop: (@Sendable () -> Void)?) {
        current.withLock { $0 = stop }
        if stop != nil && isRequested { stop?() }
    }

    @Sendable func request() {
        requested.store(true, ordering: .releasing)
        current.withLock { $0?() }
    }
}
