import Testing
import ToneCore
import ToneDSP

@Suite("link limits")
struct LinkLimitsTests {
    @Test("a limit that is not a usable value names its option")
    func problems() {
        #expect(LinkLimits(maxLatencyMs: 0).problem?.description.contains("--max-latency-ms") == true)
        #expect(LinkLimits(maxLatencyMs: .nan).problem?.description.contains("--max-latency-ms") == true)
        #expect(LinkLimits(maxJitterMs: -1).problem?.description.contains("--max-jitter-ms") == true)
        #expect(LinkLimits(maxDropouts: -1).problem?.description.contains("--max-dropouts") == true)
        #expect(LinkLimits(maxLatencyMs: 20, maxJitterMs: 0, maxDropouts: 0).problem == nil)
    }

    @Test("a run is judged on its worst latency, its spread and its dropouts")
    func violations() {
        func reading(_ latency: Double) -> LinkReading {
            LinkReading(timeSeconds: 0, latencyFrames: latency, gainDB: 0, levelDBFS: -25, residualDB: -50,
                        hasProbe: true, badBlocks: [])
        }
        let summary = LinkSummary(readings: [reading(960), reading(960.5), reading(1008)], sampleRateHz: 48000, withDrift: false)
        #expect(LinkLimits(maxLatencyMs: 21, maxJitterMs: 1.1, maxDropouts: 1).violations(summary, dropouts: 1).isEmpty)
        #expect(LinkLimits(maxLatencyMs: 20.5).violations(summary, dropouts: 0).count == 1)
        #expect(LinkLimits(maxJitterMs: 0.5).violations(summary, dropouts: 0).count == 1)
        #expect(LinkLimits(maxDropouts: 0).violations(summary, dropouts: 1).count == 1)
        let silent = LinkSummary(readings: [], sampleRateHz: 48000, withDrift: false)
        #expect(LinkLimits(maxLatencyMs: 20).violations(silent, dropouts: 0).count == 1, "no probe is no pass")
    }
}
