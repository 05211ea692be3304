/// Ends a client whose server died without libjack saying so (a stress run
/// saw one node of eight never get its shutdown callback after a SIGKILL of
/// the server, and hang).
///
/// The thread that waits on a bridge calls `look(nowNs:)` at each of its
/// wakes. When no period has come for `stallSeconds`, it looks at the
/// server's socket (`ServerWatch`) at most every `lookMilliseconds`, and
/// marks a server found gone on the bridge (`ProcessBridge.markServerGone`:
/// `isShutdown`, and a wake), as the shutdown callback would. A server that is
/// only stopped, or busy, is left alone: its socket still listens.
///
/// The waiting thread only.
public struct StalledServerWatch {
    /// A stall of the periods this long makes it look at the server.
    public static let stallSeconds = 1.0
    /// How often it looks while the stall lasts.
    public static let lookMilliseconds = 500

    private let server: ServerWatch
    private let bridge: ProcessBridge
    private var stall: CycleStall

    /// Watches `server` for `bridge`. Make the `ServerWatch` right after the
    /// client's open: made later, a server already gone would give none.
    public init(bridge: ProcessBridge, server: ServerWatch, nowNs: UInt64) {
        self.server = server
        self.bridge = bridge
        stall = CycleStall(cycles: bridge.cycles, nowNs: nowNs, stallNs: UInt64(Self.stallSeconds * 1e9))
    }

    /// Takes this wake (`nowNs`: the monotonic clock, as `DispatchTime.uptimeNanoseconds`).
    /// Returns the longest the caller should sleep before the next wake: `lookMilliseconds`
    /// while no period comes, nil while they do.
    @discardableResult
    public mutating func look(nowNs: UInt64) -> UInt64? {
        let state = stall.update(cycles: bridge.cycles, nowNs: nowNs)
        let lookNs = UInt64(Self.lookMilliseconds) * 1_000_000
        if state == .stalled, stall.mayLook(nowNs: nowNs, everyNs: lookNs), server.serverHasGone() {
            bridge.markServerGone()
        }
        return state == .running ? nil : lookNs
    }
}
