import Foundation
import Testing
import ToneDSP
import ToneTestSupport

/// A clear pitch is tracked from window to window (the refinement starts
/// from the last window's pitch, without the NSDF's search). Tracking may
/// change where the one Newton step starts, never what a window reads: every
/// window must read what a detector that searches every window reads.
@Suite("PitchDetector tracking a clear pitch")
struct PitchTrackingTests {
    /// Half-second segments one after the other, each switch abrupt: octave
    /// up and down, a fifth, a step of 5 cents, a
    /// tone whose fundamental is missing, a pluck, silence, a clean sine in
    /// noise at 40 dB and at 20 dB, white noise, a high sine.
    static func segments() -> [(name: String, samples: [Double])] {
        var random = SeededRandom(seed: 0x7AC4)
        let count = 24_000
        func sine(_ hz: Double, noiseRMS: Double = 0) -> [Double] {
            TestSignal.sineDoubles(frequencyHz: hz, amplitude: 0.4, phase: random.phase(), count: count,
                                   noiseRMS: noiseRMS, random: &random)
        }
        func harmonics(_ hz: Double, _ orders: ClosedRange<Int>) -> [Double] {
            let phases = orders.map { _ in random.phase() }
            return TestSignal.harmonics(fundamentalHz: hz, orders: Array(orders), amplitude: 0.1, phases: phases, count: count)
        }
        let noise = (0..<count).map { _ in 0.1 * random.gaussian() }
        let pluck = Pluck.additive(frequencyHz: 110, seconds: 0.5, random: &random)
        let rms40 = 0.4 / 2.squareRoot() / 100, rms20 = 0.4 / 2.squareRoot() / 10
        return [("220 Hz", sine(220)), ("440 Hz (octave up)", sine(440)), ("220 Hz (octave down)", sine(220)),
                ("330 Hz (a fifth)", sine(330)), ("331.1 Hz (5 cents)", sine(330 * pow(2, 5.0 / 1200))),
                ("110 Hz, harmonics 2–8", harmonics(110, 2...8)), ("pluck 110 Hz", pluck),
                ("silence", [Double](repeating: 0, count: count)), ("220 Hz at 40 dB SNR", sine(220, noiseRMS: rms40)),
                ("220 Hz at 20 dB SNR", sine(220, noiseRMS: rms20)), ("white noise", noise), ("1000 Hz", sine(1000))]
    }

    @Test("a window inside a segment reads what a detector searching every window reads (0.001 cent, 1e-4 dB); one across a switch reads the same tone")
    func sameReadings() throws {
        let parts = Self.segments()
        let signal = parts.flatMap(\.samples)
        func analyze(tracking: Bool) throws -> (reports: [ToneReport], tracked: Int) {
            let run = try Pluck.run(signal, hopFrames: 512, tracking: tracking)
            return (run.reports, run.detector.trackedWindows)
        }
        let (tracked, trackedCount) = try analyze(tracking: true)
        let (searched, searchedCount) = try analyze(tracking: false)
        #expect(tracked.count == searched.count && tracked.count > 200)
        #expect(searchedCount == 0)
        var worstInside = 0.0, worstAcross = 0.0, worstLevelDB = 0.0, differing: [String] = []
        for (a, b) in zip(tracked, searched) {
            // The window's segments: it ends at timeSeconds and holds 4096 samples.
            let last = min(parts.count - 1, Int(a.timeSeconds / 0.5 - 1e-9))
            let first = max(0, Int((a.timeSeconds - 4096 / Pluck.sampleRateHz) / 0.5))
            let across = first != last
            let label = "\(a.timeSeconds) s (\(parts[first].name)\(across ? " → " + parts[last].name : ""))"
            switch (a.reading.frequencyHz, b.reading.frequencyHz) {
            case (nil, nil): continue
            case let (x?, y?):
                let cents = abs(1200 * log2(x / y))
                let levelDB = abs((a.reading.levelDBFS ?? .nan) - (b.reading.levelDBFS ?? .nan))
                if across {
                    worstAcross = max(worstAcross, cents)
                    if cents > 1 { differing.append("\(label): \(x) vs \(y) Hz") }
                } else {
                    worstInside = max(worstInside, cents)
                    worstLevelDB = max(worstLevelDB, levelDB.isNaN ? .infinity : levelDB)
                    if cents > 0.001 || !(levelDB <= 1e-4) { differing.append("\(label): \(x) vs \(y) Hz") }
                }
            default:
                differing.append("\(label): \(String(describing: a.reading.frequencyHz)) vs \(String(describing: b.reading.frequencyHz))")
            }
        }
        report("tracking vs searching every window, \(tracked.count) windows over \(parts.count) segments, \(trackedCount) tracked: inside a segment ≤ \(String(format: "%.1e", worstInside)) cent and \(String(format: "%.1e", worstLevelDB)) dB apart, across a switch ≤ \(String(format: "%.2f", worstAcross)) cent")
        // The clean tones' windows (about half) are tracked.
        #expect(trackedCount > tracked.count / 3)
        #expect(differing.isEmpty, "\(differing.count) windows differ: \(differing.prefix(8))")
    }

    /// Whole windows one after the other with no window between them that
    /// holds both (the analyzer's overlapping hops always have one, whose
    /// mixture is not clear and ends the tracking): only the checks on the
    /// tracked window itself (SNR, the fundamental's share, the step) can
    /// see the change.
    @Test("window after window with nothing between: an octave up or down, a fifth, a missing fundamental each read as searched")
    func jumps() throws {
        var random = SeededRandom(seed: 0x7AC5)
        func sine(_ hz: Double) -> [Float] {
            TestSignal.sine(frequencyHz: hz, amplitude: 0.4, phase: random.phase(), count: 4096, random: &random)
        }
        func harmonics(_ hz: Double) -> [Float] {
            let phases = (2...8).map { _ in random.phase() }
            return TestSignal.harmonics(fundamentalHz: hz, orders: Array(2...8), amplitude: 0.1, phases: phases, count: 4096)
                .map { Float($0) }
        }
        let frames: [(String, [Float])] = [
            ("220 Hz", sine(220)), ("220 Hz", sine(220)), ("440 Hz", sine(440)), ("440 Hz", sine(440)),
            ("220 Hz", sine(220)), ("330 Hz", sine(330)), ("331.1 Hz", sine(330 * pow(2, 5.0 / 1200))),
            ("110 Hz, harmonics 2–8 (331.1 Hz is its third)", harmonics(331.1 / 3)), ("660 Hz", sine(660)),
            ("1320 Hz", sine(1320)), ("660 Hz", sine(660)), ("660 Hz", sine(660)),
        ]
        var configuration = PitchDetectorConfiguration(sampleRateHz: Pluck.sampleRateHz, frameSize: 4096)
        let tracking = try PitchDetector(configuration, planning: .estimate)
        configuration.tracksClearPitch = false
        let searching = try PitchDetector(configuration, planning: .estimate)
        var lines: [String] = [], differing: [String] = []
        for (name, frame) in frames {
            let before = tracking.trackedWindows
            let a = frame.withUnsafeBufferPointer { tracking.estimate($0) }
            let b = frame.withUnsafeBufferPointer { searching.estimate($0) }
            let cents = a.frequencyHz.flatMap { x in b.frequencyHz.map { y in abs(1200 * log2(x / y)) } } ?? .infinity
            let line = "\(name): \(a.frequencyHz.map { String(format: "%.4f", $0) } ?? "none")\(tracking.trackedWindows > before ? " (tracked)" : "")"
            lines.append(line)
            if !(cents <= 0.001) { differing.append("\(line) vs \(b.frequencyHz.map { String(format: "%.4f", $0) } ?? "none")") }
        }
        report("window after window: \(lines.joined(separator: "; "))")
        // The repeated tones; the 5-cent step (0.08 bin) is too far to track.
        #expect(tracking.trackedWindows == 3)
        #expect(differing.isEmpty, "\(differing)")
    }
}
