import CJack
import Foundation
import Synchronization

// MARK: - JACK metadata (pretty names) through a helper process
//
// The client's pretty names, and the process-wide set-up of the helper
// processes that set them (`MetadataHelperProcess`, one per client; its main
// is `MetadataHelper`): which executable, where its one warning goes, and what
// to do about them before the process exits.
extension JackClient {
    /// Sets JACK metadata pretty names, shown by metadata-aware patchbays
    /// instead of the stable ASCII names: `client` on the client itself and
    /// each of `ports` on its port. `close` removes them again.
    ///
    /// Decoration only, so never waited for, and never in this process: a
    /// `MetadataHelper` process makes the calls (a process that ends while it
    /// waits for the store's lock wedges the store for the user; the helper
    /// never does). This only starts it: a thread of its own waits for its
    /// answer at most `deadline` (then one warning line, once per process,
    /// through `metadataWarnings`; the helper waits on by itself), so the
    /// helper is never in a start-up's or a reconnect's way. Without a helper
    /// executable (`useMetadataHelper`) nothing is set. Once per client.
    /// Returns whether a helper was started.
    @discardableResult
    public func setPrettyNames(client clientName: String?, ports: [(port: OpaquePointer, name: String)],
                               deadline: Duration = .seconds(1)) -> Bool {
        guard metadataHelper == nil, !isClosed else { return false }
        MetadataHelperProcess.reapExited()
        // A helper still stuck in the store: a new one would only queue behind it.
        guard !MetadataHelperProcess.anyStuck else { return false }
        var names = ports.map { (subject: jack_port_uuid($0.port), name: $0.name) }
        if let clientName {
            guard let subject = ownUUID() else { return false }
            names.insert((subject, clientName), at: 0)
        }
        guard let helper = MetadataHelperProcess.start(server: serverName, clientName: Self.helperClientName(for: name),
                                                       names: names) else { return false }
        metadataHelper = helper
        Thread.detachNewThread {
            switch helper.awaitAnswer(deadline: deadline) {
            case .late:
                Self.warnOnce("warning: JACK metadata is not answering (pretty names skipped); "
                    + "another client may hold its lock in /dev/shm/jack_db-\(getuid())")
            case .stored(let count, let asked) where count < asked:
                Self.warnOnce("warning: JACK metadata took \(count) of \(asked) pretty names "
                    + "(the server refused the others)")
            case .stored, .failed:
                break
            }
        }
        return true
    }

    /// The client's own UUID, the metadata subject of its pretty name.
    private func ownUUID() -> jack_uuid_t? {
        guard let text = jack_get_uuid_for_client_name(handle, jack_get_client_name(handle)) else { return nil }
        defer { jack_free(text) }
        var uuid = jack_uuid_t()
        return jack_uuid_parse(text, &uuid) == 0 ? uuid : nil
    }

    /// The helper's own client: named after ours, within JACK's name limit
    /// (JACK appends `-01`… when taken).
    static func helperClientName(for clientName: String) -> String {
        let limit = Int(jack_client_name_size()) - 1 - 3 - "-meta".count
        return String(clientName.utf8.prefix(limit)).map { $0 + "-meta" } ?? "tonenode-meta"
    }

    private static let warned = Atomic<Bool>(false)
    private static let warningSink = Mutex<(@Sendable (String) -> Void)?>(nil)

    private static func warnOnce(_ line: String) {
        guard !warned.exchange(true, ordering: .acquiringAndReleasing) else { return }
        warningSink.withLock { $0 }?(line)
    }

    /// Where metadata warnings go (one line, once per process); tonenode sets stderr.
    public static func metadataWarnings(_ sink: @escaping @Sendable (String) -> Void) {
        warningSink.withLock { $0 = sink }
    }

    /// Makes `executable` (run with `MetadataHelper.subcommand`) the process
    /// that sets and removes pretty names; tonenode gives `/proc/self/exe`.
    public static func useMetadataHelper(executable: String) {
        MetadataHelperProcess.executable.withLock { $0 = executable }
    }

    /// Whether a metadata helper is still waiting on the store, or a client's
    /// close was left waiting on the server's own metadata clean-up: the
    /// process should then end with `_exit`, not run libjack's exit-time
    /// clean-up, which may wait too.
    public static var metadataIsStuck: Bool {
        pendingCloses.load(ordering: .acquiring) > 0 || MetadataHelperProcess.anyStuck
    }

    /// Before the process exits: tells every metadata helper to remove its
    /// names and waits at most `deadline` for those not stuck to finish.
    public static func finishMetadata(deadline: Duration = .milliseconds(500)) {
        MetadataHelperProcess.finishAll(deadline: deadline)
    }
}
