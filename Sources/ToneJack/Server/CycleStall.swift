/// Whether the JACK periods have stopped, as a waiting thread sees at its
/// wakes, and when the server was last looked at since. One thread.
struct CycleStall {
    enum State {
        /// A period came since the last wake.
        case running
        /// None since the last wake, for less than `stallNs`.
        case quiet
        /// None for `stallNs` or more.
        case stalled
    }

    private let stallNs: UInt64
    private var cycles: Int
    /// The wake before the one that last saw the count move: the last period
    /// came after it. Counting from there looks early rather than late, and a
    /// look at a server that is there costs nothing.
    private var sinceNs: UInt64
    private var lastUpdateNs: UInt64
    private var lookedNs: UInt64 = 0

    init(cycles: Int, nowNs: UInt64, stallNs: UInt64) {
        self.cycles = cycles
        self.stallNs = stallNs
        sinceNs = nowNs
        lastUpdateNs = nowNs
    }

    /// Takes the period count seen at this wake.
    mutating func update(cycles now: Int, nowNs: UInt64) -> State {
        defer { lastUpdateNs = nowNs }
        if now != cycles {
            cycles = now
            sinceNs = lastUpdateNs
            return .running
        }
        return nowNs &- sinceNs >= stallNs ? .stalled : .quiet
    }

    /// True at most once every `everyNs` (notes the look).
    mutating func mayLook(nowNs: UInt64, everyNs: UInt64) -> Bool {
        guard nowNs &- lookedNs >= everyNs else { return false }
        lookedNs = nowNs
        return true
    }
}
