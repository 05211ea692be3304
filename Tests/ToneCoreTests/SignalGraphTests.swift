import Testing
import ToneCore

@Suite("signal graph: the paths audit measures")
struct SignalGraphTests {
    /// a feeds b directly and through c; b's output is the exit; a stereo d
    /// (in_1, in_2 → out_1, out_2) hangs off a; e loops back into a.
    static let connections: [String: [String]] = [
        "a:out": ["b:in", "c:in", "d:in_1", "e:in"], "c:out": ["b:in"], "e:out": ["a:in"],
    ]
    static let clients: [String: [String]] = [
        "a:in": ["a:out"], "b:in": ["b:out"], "c:in": ["c:out"], "d:in_1": ["d:out_1", "d:out_2"],
        "d:in_2": ["d:out_1", "d:out_2"], "e:in": ["e:out"],
    ]
    static let graph = SignalGraph.walk(from: ["a:in"], outputsOfInput: { clients[$0] ?? [] },
                                        inputsOfOutput: { connections[$0] ?? [] })

    @Test("every loop-free path from the entries to the exits, past an exit to another one")
    func paths() throws {
        let paths = try Self.graph.paths(from: ["a:in"], to: ["b:out", "a:out", "d:out_2"]).map(\.ports)
        #expect(paths.count == 4)
        #expect(paths.contains(["a:in", "a:out"]))
        #expect(paths.contains(["a:in", "a:out", "b:in", "b:out"]))
        #expect(paths.contains(["a:in", "a:out", "c:in", "c:out", "b:in", "b:out"]))
        #expect(paths.contains(["a:in", "a:out", "d:in_1", "d:out_2"]))
        #expect(Self.graph.outputsOfInput["d:in_2"] == nil, "only what the entries reach is walked")
    }

    @Test("isolating a path lifts the other branches into its inputs, loops back to its entry included")
    func isolation() {
        let direct = SignalGraph.Path(ports: ["a:in", "a:out", "b:in", "b:out"])
        #expect(Set(Self.graph.connectionsToLift(isolating: direct))
                == [.init(output: "c:out", input: "b:in"), .init(output: "e:out", input: "a:in")])
        let through = SignalGraph.Path(ports: ["a:in", "a:out", "c:in", "c:out", "b:in", "b:out"])
        #expect(Set(Self.graph.connectionsToLift(isolating: through))
                == [.init(output: "a:out", input: "b:in"), .init(output: "e:out", input: "a:in")])
        #expect(through.edges == [.init(output: "a:out", input: "c:in"), .init(output: "c:out", input: "b:in")])
    }

    @Test("no path, and too many, are errors that say so")
    func failures() {
        #expect(throws: SignalGraph.Failure.noPath(entries: ["a:in"], exits: ["z:out"])) {
            try Self.graph.paths(from: ["a:in"], to: ["z:out"])
        }
        #expect(throws: SignalGraph.Failure.tooManyPaths(limit: 1)) {
            try Self.graph.paths(from: ["a:in"], to: ["b:out"], limit: 1)
        }
    }

    @Test("the verdict: one period off the round trip, the difference from the nearest end of the range")
    func verdict() {
        let liar = LatencyVerdict(roundTripFrames: 256 + 64.37, periodFrames: 256, reportedFrames: 0...0)
        #expect(liar.cyclePeriods == 1 && abs(liar.measuredFrames - 64.37) < 1e-9 && liar.misreported)
        let limiter = LatencyVerdict(roundTripFrames: 256 + 240, periodFrames: 256, reportedFrames: 240...240)
        #expect(limiter.differenceFrames == 0 && !limiter.misreported)
        let longerThanAPeriod = LatencyVerdict(roundTripFrames: 64 + 240, periodFrames: 64, reportedFrames: 0...0)
        #expect(longerThanAPeriod.measuredFrames == 240 && longerThanAPeriod.misreported, "not 48 frames and 3 more periods")
        let widened = LatencyVerdict(roundTripFrames: 256 + 10, periodFrames: 256, reportedFrames: 0...256)
        #expect(widened.differenceFrames == 0, "inside the range")
        let over = LatencyVerdict(roundTripFrames: 256 + 32.25, periodFrames: 256, reportedFrames: 100...100)
        #expect(abs(over.differenceFrames + 67.75) < 1e-9 && over.misreported)
    }
}
