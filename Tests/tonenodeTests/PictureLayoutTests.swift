import Foundation
import Testing
import ToneCore
import ToneDSP
@testable import tonenode
@testable import ToneCommandLine

/// Every picture kind drawn from real analyses of synthesized chains (in process: the stimulus of a
/// `measure --what all,crosstalk,midi`, through a wire or a coloured chain, analysed as `measure`
/// does), and checked: no text leaves the picture or overlaps another, no peak is cut off at the top.
@Suite("pictures: every label inside and clear of the others")
struct PictureLayoutTests {
    /// The chain between `out` and `in`: a delay, and for the coloured one an 80 Hz high-pass,
    /// x + 0.01x² + 0.003x³, 50 Hz hum at −90 dBFS with its harmonics, noise at −110 dBFS.
    static func chain(_ x: [Float], coloured: Bool, count: Int, delayFrames: Int = 256) -> [Float] {
        var y = [Float](repeating: 0, count: count)
        for n in delayFrames..<count where n - delayFrames < x.count { y[n] = x[n - delayFrames] }
        guard coloured else { return y }
        // RBJ high-pass, 80 Hz, Q 0.707.
        let w = 2 * Double.pi * 80 / 48000, alpha = sin(w) / (2 * 0.5.squareRoot()), a0 = 1 + alpha
        let b0 = (1 + cos(w)) / 2 / a0, b1 = -(1 + cos(w)) / a0, a1 = -2 * cos(w) / a0, a2 = (1 - alpha) / a0
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        var seed: UInt64 = 33
        for n in y.indices {
            let x0 = Double(y[n])
            let h = b0 * x0 + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x0, y1, h)
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(seed >> 11) / Double(1 << 53) - 0.5
            let t = Double(n) / 48000
            let hum = 3.16e-5 * (sin(2 * .pi * 50 * t) + 0.5 * sin(2 * .pi * 150 * t) + 0.3 * sin(2 * .pi * 100 * t))
            y[n] = Float(h + 0.01 * h * h + 0.003 * h * h * h + hum + 3.16e-6 * 3.46 * uniform)
        }
        return y
    }

    static func signal() throws -> MeasurementSignal {
        var plan = MeasurementSignal.Plan(sampleRateHz: 48000)
        plan.sweepSeconds = 1
        plan.maxLatencySeconds = 0.1
        plan.levelStepsDBFS = LevelSweepAnalyzer.defaultStepsDBFS
        plan.noiseSeconds = 1
        plan.imdSeconds = 1
        plan.crosstalkChannels = 2
        plan.midiNotes = 8
        return MeasurementSignal(plan: try plan.validated())
    }

    /// Every picture `measure --plot` draws for the chain, by name.
    static func measurePictures(coloured: Bool) throws -> [(String, String)] {
        let signal = try signal()
        let count = signal.recordingFrames
        var recording = chain(signal.stimulus, coloured: coloured, count: count)
        // The MIDI notes answered 300 frames late by a 440 Hz burst of 50 ms.
        for noteOn in signal.midiNoteOnFrames {
            for k in 0..<2400 where noteOn + 300 + k < count {
                recording[noteOn + 300 + k] += Float(0.25 * min(1, Double(k) / 48) * sin(2 * .pi * 440 * Double(k) / 48000))
            }
        }
        var pictures: [(String, String)] = try recording.withUnsafeBufferPointer { r in
            let deconvolution = try SweepDeconvolution(signal, recording: r)
            let m = try ChainAnalyzer.analyze(signal, recording: r, deconvolution: deconvolution)
            return [
                ("response", ResponsePlot.svg(m)),
                ("harmonics", HarmonicsPlot.svg(HarmonicAnalyzer.analyze(signal, deconvolution: deconvolution, latencyFrames: m.latencyFrames))),
                ("levels", LevelsPlot.svg(try LevelSweepAnalyzer.analyze(signal, recording: r, latencyFrames: m.latencyFrames))),
                ("noise", NoisePlot.svg(try NoiseAnalyzer.analyze(signal, recording: r, latencyFrames: m.latencyFrames))),
                ("imd", IntermodulationPlot.svg(try IntermodulationAnalyzer.analyze(signal, recording: r, latencyFrames: m.latencyFrames))),
                ("midi", MIDILatencyPlot.svg(try MIDILatencyAnalyzer.analyze(signal, recording: r))),
            ]
        }
        // Two channels, each leaking into the other (−60 and −80 dB).
        let outputs = (0..<2).map { chain(signal.stimulus(channel: $0), coloured: coloured, count: count) }
        let inputs = [zip(outputs[0], outputs[1]).map { $0 + 1e-3 * $1 }, zip(outputs[1], outputs[0]).map { $0 + 1e-4 * $1 }]
        let matrix = try inputs[0].withUnsafeBufferPointer { a in
            try inputs[1].withUnsafeBufferPointer { b in try CrosstalkAnalyzer.analyze(signal, recordings: [a, b]) }
        }
        pictures.append(("crosstalk", CrosstalkPlot.svg(matrix)))
        return pictures
    }

    /// `analyze --plot` of sawtooth notes (A3, a rest, E4, a glide to A4), in both modes.
    static func filePictures() throws -> [(String, String)] {
        let rate = 48000.0
        var samples: [Float] = []
        var phase = 0.0
        for (seconds, fromHz, toHz) in [(0.6, 220.0, 220.0), (0.25, 0, 0), (0.6, 330, 330), (0.25, 0, 0), (1, 330, 440)] {
            let frames = Int(seconds * rate)
            for n in 0..<frames {
                let hz = fromHz + (toHz - fromHz) * Double(n) / Double(frames)
                phase = (phase + hz / rate).truncatingRemainder(dividingBy: 1)
                samples.append(hz > 0 ? Float(0.3 * (2 * phase - 1)) : 0)
            }
        }
        var settings = NodeSettings()
        settings.mode = .pitch
        let analyzer = try settings.makeAnalyzer(sampleRateHz: rate, planning: .estimate)
        let windowSeconds = Double(analyzer.windowFrames) / rate
        var track: [PitchTrackPlot.Point] = []
        samples.withUnsafeBufferPointer { analyzer.process($0) { track.append(PitchTrackPlot.point($0, windowSeconds: windowSeconds)) } }
        let tone = try #require(FilePlot.svg(samples: samples, sampleRateHz: rate, name: "notes.wav"))
        let pitch = try #require(FilePlot.svg(samples: samples, sampleRateHz: rate, name: "notes.wav", pitchTrack: track))
        return [("analyze", tone), ("analyze --mode pitch", pitch)]
    }

    @Test("measure's pictures of a clean wire and of a coloured chain, analyze's of a file", arguments: [false, true])
    func everyPicture(coloured: Bool) throws {
        let pictures = try Self.measurePictures(coloured: coloured) + (coloured ? Self.filePictures() : [])
        if let directory = ProcessInfo.processInfo.environment["TONENODE_PICTURES"] {
            for (name, svg) in pictures {
                try svg.write(toFile: "\(directory)/\(coloured ? "coloured" : "wire")-\(name.replacingOccurrences(of: " ", with: "_")).svg",
                              atomically: true, encoding: .utf8)
            }
        }
        #expect(pictures.count == (coloured ? 9 : 7))
        for (name, svg) in pictures {
            let layout = try #require(SVGTextLayout(svg), "\(name): not well-formed XML")
            #expect(layout.boxes.count > 10, "\(name): \(layout.boxes.count) texts")
            #expect(layout.problems.isEmpty, "\(name): \(layout.problems.joined(separator: "; "))")
        }
    }

    @Test("a wire's harmonics and idle noise lie on the floor: a note says so")
    func floorNotes() throws {
        let pictures = Dictionary(uniqueKeysWithValues: try Self.measurePictures(coloured: false))
        let harmonicsSVG = try #require(pictures["harmonics"]), noiseSVG = try #require(pictures["noise"])
        let harmonics = try #require(SVGTextLayout(harmonicsSVG))
        #expect(harmonics.boxes.contains { $0.text.hasSuffix("all below -180 dB") && $0.text.hasPrefix("THD, H2") },
                "\(harmonics.boxes.map(\.text))")
        let noise = try #require(SVGTextLayout(noiseSVG))
        #expect(noise.boxes.contains { $0.text.hasPrefix("idle: all") && $0.text.hasSuffix("dBFS") }, "\(noise.boxes.map(\.text))")
    }
}
