/// Whether the JACK cycles have stopped for `AnalysisWorker.stallSeconds`,
/// and when the server was last looked at since. Worker thread only.
struct CycleStall {
    private var cycles: Int
    private var sinceNs: UInt64
    private var lookedNs: UInt64 = 0

    init(cycles: Int, nowNs: UInt64) {
        self.cycles = cycles
        sinceNs = nowNs
    }

    /// Takes the cycle count seen now; true while it has not moved for the stall time.
    mutating func update(cycles now: Int, nowNs: UInt64) -> Bool {
        if now != cycles {
            cycles = now
            sinceNs = nowNs
            return false
        }
        return Double(nowNs &- sinceNs) >= AnalysisWorker.stallSeconds * 1e9
    }

    /// True at most once every `everyNs` (notes the look).
    mutating func mayLook(nowNs: UInt64, everyNs: UInt64) -> Bool {
        guard nowNs &- lookedNs >= everyNs else { return false }
        lookedNs = nowNs
        return true
    }
}
