import Foundation
import Testing
import ToneCore
import ToneDSP

/// The steady span (`--steady`, `steadySpanSeconds`, the LV2 analyzer's `steady`)
/// through each door of the node's settings, and into the analyzer they make.
@Suite("The steady span parameter")
struct SteadyParameterTests {
    @Test("a session keeps it; a file without the key (an older version's) keeps the default")
    func session() throws {
        try expectSessionKey(\.steadySpanSeconds, "steadySpanSeconds", value: 0, defaultValue: SteadySpan.defaultMaxSeconds)
    }

    @Test("the settings' one check refuses it out of range, naming it per door")
    func validation() throws {
        var settings = NodeSettings()
        settings.steadySpanSeconds = 61
        let problem = try #require(settings.problems(sampleRateHz: nil).first)
        #expect(problem.description == "--steady 61.0 must be a number of seconds from 0 to 60")
        #expect(problem.sessionDescription == "steadySpanSeconds 61.0 must be a number of seconds from 0 to 60")
        settings.steadySpanSeconds = -1
        #expect(!settings.problems(sampleRateHz: nil).isEmpty)
        settings.steadySpanSeconds = 0
        #expect(settings.problems(sampleRateHz: nil).isEmpty)
    }

    /// One second of a clean 1 kHz tone: with the default the last reading
    /// covers the span (more than one window), with 0 one window (nil).
    @Test("the analyzer the settings make integrates, or not when it is 0", arguments: [AnalysisMode.tone, .pitch])
    func analyzer(mode: AnalysisMode) throws {
        let rate = 48_000.0
        let samples = (0..<Int(rate)).map { Float(0.25 * sin(2 * Double.pi * 1000 * Double($0) / rate)) }
        func lastSpan(_ seconds: Double) throws -> Double? {
            var settings = NodeSettings()
            settings.mode = mode
            settings.steadySpanSeconds = seconds
            let analyzer = try settings.makeAnalyzer(sampleRateHz: rate, planning: .estimate)
            var last: ToneReport?
            samples.withUnsafeBufferPointer { analyzer.process($0) { last = $0 } }
            #expect(last?.reading.frequencyHz != nil)
            return last?.reading.spanSeconds
        }
        #expect(try #require(try lastSpan(SteadySpan.defaultMaxSeconds)) > 0.9)
        #expect(try lastSpan(0) == nil)
    }
}
