import Synchronization
import ToneDSP
import ToneModem

/// Cable transmissions heard on `in` (with their time in the input stream),
/// handed from the task that reads the node's events to the task that runs
/// the session. Any thread.
final class CableInbox: Sendable {
    private let receptions = Mutex<[(reception: CableReception, timeSeconds: Double)]>([])

    func post(_ reception: CableReception, timeSeconds: Double) {
        receptions.withLock { $0.append((reception, timeSeconds)) }
    }

    /// Everything heard since the last call, oldest first.
    func take() -> [(reception: CableReception, timeSeconds: Double)] {
        receptions.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
