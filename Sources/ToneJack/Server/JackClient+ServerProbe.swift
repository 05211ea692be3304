import CJack
import Foundation

// MARK: - Whether a server answers (a libjack probe)
extension JackClient {
    /// Whether some server answers: opens and closes a probe client (`demo`
    /// before starting its own, `link` and the node's reconnect loop,
    /// `PrivateJackServer` once its socket listens).
    ///
    /// The probe is named for this process (`tonenode-probe-PID`), never a
    /// name shared with other processes. jack2 (1.9.21, and its source to
    /// date) puts a client's notification socket at
    /// `/dev/shm/jack_<client>_<uid>_0`, whatever the server: two processes of
    /// one user opening clients of the same name at once (a test's
    /// `PrivateJackServer` and the `link` it runs, both waiting for a server;
    /// two test runs) unlink and take each other's socket, and one server's
    /// notifications reach the other's client. `jack_client_close` then kills
    /// that client's notification thread with an asynchronous `pthread_cancel`
    /// while it holds libjack's process-wide synchro mutex (jack2 issue 395):
    /// from then on every `jack_client_close` of the process blocks for good
    /// and every open fails. A deadline on a
    /// side thread would not help: the stuck close also holds libjack's open
    /// mutex. So the hazard is avoided, not bounded (docs/engineering/reliability.md).
    public static func serverIsReachable(serverName: String?) -> Bool {
        silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        openCount.add(1, ordering: .releasing)
        defer { openCount.subtract(1, ordering: .releasing) }
        guard let probe = tn_client_open(probeName, options, &status, serverName) else { return false }
        jack_client_close(probe)
        return true
    }

    /// The probe client's name, unique to this process (see `serverIsReachable`).
    static let probeName = "tonenode-probe-\(getpid())"
}
