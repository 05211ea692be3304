import CJack

extension JackClient {
    /// The latency JACK reports at each of `ports` (`jack_port_get_latency_range`,
    /// the figure hosts such as Ardour compensate with), after asking the
    /// server once to recompute the graph's totals. `capture`: frames since
    /// the signal at the port entered the graph (what the clients upstream
    /// report); else frames until it leaves (downstream). Main thread.
    /// - Returns: one range per port, nil for a name no port has.
    public func latencyRangesFrames(ofPorts ports: [String], capture: Bool) -> [ClosedRange<Int>?] {
        jack_recompute_total_latencies(handle)
        return ports.map { name in
            guard let port = jack_port_by_name(handle, name) else { return nil }
            var range = jack_latency_range_t()
            jack_port_get_latency_range(port, capture ? JackCaptureLatency : JackPlaybackLatency, &range)
            return Int(range.min)...Int(max(range.min, range.max))
        }
    }
}
