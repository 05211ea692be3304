import Foundation
import Testing
import ToneTestSupport
@testable import ToneDSP

@Suite("Link probe on synthetic links")
struct LinkAnalyzerTests {
    static let probe = LinkProbe(sampleRateHz: 48000)

    @Test("a fixed delay reads to 1/1000 frame, gain to 0.01 dB, no dropout",
          arguments: [0.0, 256.0, 1234.375, 9000.9])
    func fixedDelay(delayFrames: Double) {
        let probe = Self.probe
        let stream = LinkChannel.render(probe, frames: 4 * probe.periodFrames, gain: 0.5, noiseDBFS: -90) { _ in delayFrames }
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, stream)
        #expect(analyzer.readings.count == 4)
        // The first period is the probe's start-up in the stream (no history before frame 0) only when the delay is 0.
        for reading in analyzer.readings {
            #expect(reading.hasProbe)
            #expect(abs(reading.latencyFrames - delayFrames) < 0.001, "read \(reading.latencyFrames)")
            #expect(abs(reading.gainDB - 20 * log10(0.5)) < 0.01)
            #expect(reading.residualDB < -40)
        }
        #expect(analyzer.dropouts.isEmpty)
        #expect(analyzer.changes.isEmpty)
    }

    @Test("a delay step is one change, at its time, of its size (to 0.01 frame)")
    func delayStep() throws {
        let probe = Self.probe
        let stepFrame = 5 * probe.periodFrames + 3000
        let stream = LinkChannel.render(probe, frames: 9 * probe.periodFrames) { $0 < stepFrame ? 100.25 : 148.25 }
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, stream)
        let change = try #require(analyzer.changes.first)
        #expect(analyzer.changes.count == 1)
        #expect(abs(change.toFrames - change.fromFrames - 48) < 0.01, "\(change)")
        let stepSeconds = Double(stepFrame) / 48000
        #expect(change.timeSeconds >= stepSeconds && change.timeSeconds <= stepSeconds + 2 * probe.maximumLatencySeconds)
    }

    @Test("every dropout burst is counted, with its time and length")
    func dropouts() {
        let probe = Self.probe
        var random = SeededRandom(seed: 15)
        var bursts: [Range<Int>] = []
        var position = 2000
        for _ in 0..<12 {
            position += 4000 + Int(random.uniform() * 20000)
            let length = 64 + Int(random.uniform() * 2000)
            bursts.append(position..<(position + length))
            position += length
        }
        let frames = (position / probe.periodFrames + 2) * probe.periodFrames
        let stream = LinkChannel.render(probe, frames: frames, delay: { _ in 77.5 }, dropouts: bursts)
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, stream)
        #expect(analyzer.dropouts.count == bursts.count, "\(analyzer.dropouts)")
        for (found, burst) in zip(analyzer.dropouts, bursts) {
            let startSeconds = Double(burst.lowerBound) / 48000, lengthSeconds = Double(burst.count) / 48000
            let block = Double(LinkEstimator.blockFrames) / 48000
            #expect(abs(found.startSeconds - startSeconds) <= block + 1e-9)
            #expect(abs(found.durationSeconds - lengthSeconds) <= 2 * block + 1e-9)
        }
        #expect(analyzer.changes.isEmpty)
    }

    @Test("a 16 ms gap in a round trip whose delay wanders (two resamplers' loops) is one dropout of its length",
          arguments: [0.0, 0.5, 2.0])
    func gapsWhileTheDelayWanders(wanderFrames: Double) {
        let probe = Self.probe
        // zita-njbridge's two receivers hunt by about a frame over tens of
        // seconds; a relay drops 6 datagrams of 128 frames.
        let delay = { (n: Int) in 2000 + wanderFrames * sin(2 * Double.pi * 0.1 * Double(n) / 48000) }
        var gaps: [Range<Int>] = []
        var position = 3 * 48000
        for k in 0..<8 {
            // Each gap at another place in the probe's period.
            let start = position + k * probe.periodFrames / 8
            gaps.append(start..<(start + 768))
            position += 72000
        }
        let frames = position + 2 * 48000
        let stream = LinkChannel.render(probe, frames: frames, delay: delay, dropouts: gaps)
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, stream)
        let block = Double(LinkEstimator.blockFrames) / 48000
        #expect(analyzer.dropouts.count == gaps.count, "\(analyzer.dropouts)")
        for (found, gap) in zip(analyzer.dropouts, gaps) {
            #expect(abs(found.durationSeconds - Double(gap.count) / 48000) <= 2 * block + 1e-9,
                    "a \(gap.count)-frame gap at \(gap.lowerBound) read as \(found)")
        }
    }

    @Test("a burst, then the receiver re-times itself (a resampling excursion of 0.5 % for seconds): one dropout of the burst's length",
          arguments: [1.0, -1.0])
    func burstThenExcursion(sign: Double) {
        let probe = Self.probe
        // zita-n2j after a burst longer than its buffer (a fresh-clone CI run
        // and a local one, --info): its delay error jumped by ~400 frames and
        // its resampler ran up to 0.49 % fast, settling over ~8 s. Here the
        // delay's rate of change rises to 0.5 % in 1 s and decays (u·e^(1−u)),
        // 650 frames in all.
        let gapStart = 3 * 48000, gapFrames = 1536
        let rateMax = 0.005, riseSeconds = 1.0
        let delay = { (n: Int) -> Double in
            guard n > gapStart else { return 2000 }
            let u = Double(n - gapStart) / 48000 / riseSeconds
            return 2000 + sign * rateMax * riseSeconds * 48000 * M_E * (1 - (1 + u) * exp(-u))
        }
        let frames = 9 * 48000
        let stream = LinkChannel.render(probe, frames: frames, noiseDBFS: -90, delay: delay,
                                        dropouts: [gapStart..<(gapStart + gapFrames)])
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, stream)
        let block = Double(LinkEstimator.blockFrames) / 48000
        #expect(analyzer.dropouts.count == 1, "\(analyzer.dropouts)")
        if let found = analyzer.dropouts.first {
            #expect(abs(found.durationSeconds - Double(gapFrames) / 48000) <= 2 * block + 1e-9, "read as \(found)")
            #expect(abs(found.startSeconds - Double(gapStart) / 48000) <= 2 * block + 1e-9, "read as \(found)")
        }
        // Every reading carries the probe, at the delay of its window's middle (within a frame).
        let period = probe.periodFrames
        for (index, reading) in analyzer.readings.enumerated() {
            let middle = index * period + period / 2
            #expect(reading.hasProbe, "reading \(index) at \(reading.timeSeconds) s: \(reading)")
            guard reading.hasProbe, !(index * period..<((index + 1) * period)).contains(gapStart) else { continue }
            #expect(abs(reading.latencyFrames - delay(middle)) < 1,
                    "reading \(index): \(reading.latencyFrames) frames, the delay at its middle \(delay(middle))")
        }
    }

    @Test("broken stretches closer than 50 ms are one dropout (a receiver resyncing after a burst)")
    func mergedBursts() {
        let probe = Self.probe
        let start = probe.periodFrames + 1000
        // 100 frames lost, 960 frames (20 ms) fine, 300 lost; then 4800 (100 ms) fine and 200 lost.
        let broken = [start..<(start + 100), (start + 1060)..<(start + 1360), (start + 6160)..<(start + 6360)]
        let stream = LinkChannel.render(probe, frames: 4 * probe.periodFrames, delay: { _ in 10 }, dropouts: broken)
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, stream)
        #expect(analyzer.dropouts.count == 2, "\(analyzer.dropouts)")
    }

    @Test("clock drift from the one-way delay's slope: within 1e-4 of itself and 0.001 ppm up to 50 ppm, 1 ppm at 120",
          arguments: [37.0, -48.0, 2.5, -120.0])
    func drift(ppm: Double) throws {
        let probe = Self.probe
        let stream = LinkChannel.render(probe, frames: 16 * probe.periodFrames, noiseDBFS: -80, seed: 7) {
            500 + ppm * 1e-6 * Double($0)
        }
        let analyzer = LinkAnalyzer(probe: probe, unwraps: true)
        LinkChannel.feed(analyzer, stream)
        let summary = LinkSummary(readings: analyzer.readings, sampleRateHz: 48000, withDrift: true)
        let drift = try #require(summary.drift)
        report(String(format: "drift %.1f ppm read %.4f ppm ± %.4f; resolution %.4f ppm at 1 s, %.5f at 10 s",
                      ppm, drift.ppm, drift.standardErrorPPM, drift.resolutionPPMAt1s, drift.resolutionPPMAt10s))
        // The oracle is the drift the stream was made with. The readings'
        // time base is counted frames, exact, so a drift read off by a fixed
        // fraction of itself is a scale error: up to 50 ppm the bound is 1e-4
        // of the drift and 0.001 ppm (not the analyzer's own error estimate).
        // What is left there is the probe's Doppler, second order: the
        // readings against the true delay bend by about 1.1e-6·p² ppm (0.0015
        // at 37, 0.0025 at 48 ppm, read 2026-11-28). Beyond about 50 ppm the
        // bins move by a good fraction of a bin over a period and the readings
        // scatter and bend faster (0.5 ppm over the run at 120, read as 0.16
        // with one outlier): within 1 ppm there, everything else the same.
        let bound = abs(ppm) <= 50 ? 1e-4 * abs(ppm) + 0.001 : 1
        #expect(abs(drift.ppm - ppm) < bound, "\(ppm) ppm read as \(drift.ppm)")
        // Settled within 0.5 s up to 50 ppm. Not claimed at 120 ppm: there the
        // last of the 16 readings sits 0.23 frame off the line through the
        // others (the Doppler scatter above; the generator is periodic, so not
        // its end), and the figure settles only at 5.12 s of 5.5.
        if abs(ppm) <= 50 { #expect(drift.settledAfterSeconds < 0.5, "settled after \(drift.settledAfterSeconds) s") }
        #expect(analyzer.dropouts.isEmpty)
    }

    @Test("jitter: the spread of the readings, a histogram of them")
    func jitterSpread() throws {
        let probe = Self.probe
        // Each period at its own delay: 40, 40.5, 41, … (a bridge that wanders).
        let stream = LinkChannel.render(probe, frames: 8 * probe.periodFrames) {
            40 + 0.1 * Double($0 / probe.periodFrames)
        }
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false, changeThresholdFrames: 1)
        LinkChannel.feed(analyzer, stream)
        let summary = LinkSummary(readings: analyzer.readings, sampleRateHz: 48000, withDrift: false)
        let spread = try #require(summary.latencyFrames)
        #expect(abs(spread.minimum - 40) < 0.01 && abs(spread.maximum - 40.7) < 0.01)
        #expect(summary.histogram.reduce(0, +) == 8)
        #expect(analyzer.changes.isEmpty)
    }

    @Test("silence is no probe and, before the probe ever came, no dropout; the probe lost later is one")
    func silence() {
        let probe = Self.probe
        let analyzer = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(analyzer, [Float](repeating: 0, count: 2 * probe.periodFrames))
        #expect(analyzer.readings.allSatisfy { !$0.hasProbe })
        #expect(LinkSummary(readings: analyzer.readings, sampleRateHz: 48000, withDrift: true).latencyFrames == nil)
        #expect(analyzer.dropouts.isEmpty)

        // The probe for two periods, then a period of silence, then the probe again.
        var stream = LinkChannel.render(probe, frames: 5 * probe.periodFrames) { _ in 300 }
        for index in 2 * probe.periodFrames..<3 * probe.periodFrames { stream[index] = 0 }
        let again = LinkAnalyzer(probe: probe, unwraps: false)
        LinkChannel.feed(again, stream)
        #expect(again.dropouts.count == 1)
        #expect(abs((again.dropouts.first?.durationSeconds ?? 0) - probe.maximumLatencySeconds) < 0.003)
    }
}
