import Synchronization
import ToneDSP

/// Session messages heard on `in`, handed from the task that reads the
/// node's events to the task that runs the session. Any thread.
final class CableInbox: Sendable {
    private let messages = Mutex<[CableSessionMessage]>([])

    func post(_ message: CableSessionMessage) { messages.withLock { $0.append(message) } }

    /// Everything heard since the last call, oldest first.
    func take() -> [CableSessionMessage] {
        messages.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
