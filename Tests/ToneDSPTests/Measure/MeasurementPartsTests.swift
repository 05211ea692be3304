import Testing
@testable import ToneDSP

/// Where an xrun fell in a measurement names the figures it may have spoilt.
@Suite("the parts of a measurement an xrun touched")
struct MeasurementPartsTests {
    static func signal(all: Bool) throws -> MeasurementSignal {
        var plan = MeasurementSignal.Plan(sampleRateHz: 48000)
        plan.sweepSeconds = 1
        if all {
            plan.levelStepsDBFS = LevelSweepAnalyzer.defaultStepsDBFS
            plan.noiseSeconds = 1
            plan.imdSeconds = 1
        }
        return MeasurementSignal(plan: try plan.validated())
    }

    @Test("a plan plays only its parts, in order, each after the one before")
    func parts() throws {
        let response = try Self.signal(all: false).parts.map(\.name)
        #expect(response == ["the sweep (latency, response, harmonics)", "the test tone (gain, THD+N)"])
        let all = try Self.signal(all: true).parts
        #expect(all.map(\.name) == ["the sweep (latency, response, harmonics)", "the test tone (gain, THD+N)",
                                    "the level steps (levels)", "the idle noise and the −60 dBFS tone (noise)",
                                    "the twin tones (imd)"])
        for (part, next) in zip(all, all.dropFirst()) { #expect(part.frames.lowerBound < next.frames.lowerBound) }
    }

    @Test("an xrun names the part it fell in, and its neighbour only within the margin")
    func touched() throws {
        let signal = try Self.signal(all: true)
        let noise = try #require(signal.parts.first { $0.name.contains("noise") })
        let middle = (noise.frames.lowerBound + noise.frames.upperBound) / 2
        #expect(signal.parts(touchedAt: [middle], margin: 100).map(\.name) == [noise.name])
        #expect(signal.parts(touchedAt: [], margin: 100).isEmpty)
        let tone = try #require(signal.parts.first { $0.name.contains("test tone") })
        let atStart = signal.parts(touchedAt: [tone.frames.lowerBound], margin: 100).map(\.name)
        #expect(atStart.contains(tone.name) && atStart.contains { $0.contains("sweep") })
    }
}
