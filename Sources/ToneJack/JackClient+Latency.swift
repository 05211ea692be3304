import CJack

extension JackClient {
    /// The latency JACK reports for a port (`jack_port_get_latency_range`,
    /// the figure hosts such as Ardour compensate with), after asking the
    /// server to recompute the graph's totals. `capture`: frames since the
    /// signal at this port entered the graph (what the clients upstream
    /// report); else frames until it leaves (downstream). Main thread.
    /// - Returns: nil when there is no port of that name.
    public func latencyRangeFrames(ofPort fullName: String, capture: Bool) -> ClosedRange<Int>? {
        guard let port = jack_port_by_name(handle, fullName) else { return nil }
        jack_recompute_total_latencies(handle)
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, capture ? JackCaptureLatency : JackPlaybackLatency, &range)
        return Int(range.min)...Int(max(range.min, range.max))
    }
}
