import CJack
import Synchronization

/// The pretty names one client has set, and how many of its metadata calls
/// have not returned yet. Written on the metadata thread, read by the client's
/// owner (main thread) in `close`; hence the lock.
final class MetadataRecord: Sendable {
    private struct State {
        var subjects: [jack_uuid_t] = []
        var pendingCalls = 0
    }
    private let state = Mutex(State())

    var hasSubjects: Bool { state.withLock { !$0.subjects.isEmpty } }
    /// A queued metadata call of this client has not returned (it may hold the client).
    var hasPendingCalls: Bool { state.withLock { $0.pendingCalls > 0 } }

    func began() { state.withLock { $0.pendingCalls += 1 } }
    func ended() { state.withLock { $0.pendingCalls -= 1 } }

    /// Sets the pretty name of `subject` and remembers it. Metadata thread.
    func set(_ subject: jack_uuid_t, _ prettyName: String, on client: OpaquePointer) -> Bool {
        guard tn_set_pretty_name(client, subject, prettyName) == 0 else { return false }
        state.withLock { $0.subjects.append(subject) }
        return true
    }

    /// Removes exactly the pretty-name keys set, one keyed delete each. Metadata thread.
    func removeAll(on client: OpaquePointer) {
        let subjects = state.withLock { state in
            defer { state.subjects = [] }
            return state.subjects
        }
        for subject in subjects { _ = tn_remove_pretty_name(client, subject) }
    }
}

/// A `jack_client_t` handed to the metadata thread. libjack's calls on one
/// client may come from several threads; its lifetime is kept by
/// `JackClient.close`, which never closes it under a pending call.
struct UncheckedHandle: @unchecked Sendable {
    let value: OpaquePointer
    init(_ value: OpaquePointer) { self.value = value }
}
