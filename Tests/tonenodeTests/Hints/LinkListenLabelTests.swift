import Foundation
import Testing
import ToneDSP
@testable import tonenode
@testable import ToneCommandLine

/// `link --listen`: the one-way delay has no fixed origin, and every line that shows it says so.
@Suite("link --listen labels its delay relative")
struct LinkListenLabelTests {
    @Test("the summary names the delay relative and says it has no fixed origin; the round trip is unchanged")
    func summary() {
        let readings = (0..<8).map {
            LinkReading(timeSeconds: Double($0), latencyFrames: 10873 + Double($0) * 0.01, gainDB: 0, levelDBFS: -20,
                        residualDB: -80, hasProbe: true, badBlocks: [])
        }
        let summary = LinkSummary(readings: readings, sampleRateHz: 48000, withDrift: true)
        let oneWay = LinkSummaryFormatter.human(summary, dropouts: [], changes: [], oneWay: true, sessions: 1,
                                                xruns: 0, framesLost: 0, violations: [])
        #expect(oneWay.contains("  relative delay (frames): min "))
        #expect(oneWay.contains("no fixed origin"))
        #expect(!oneWay.contains("  delay (frames)"))
        let roundTrip = LinkSummaryFormatter.human(summary, dropouts: [], changes: [], oneWay: false, sessions: 1,
                                                   xruns: 0, framesLost: 0, violations: [])
        #expect(roundTrip.contains("  latency (frames): min ") && !roundTrip.contains("relative"))
    }
}
