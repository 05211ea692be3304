import Foundation
import Testing
import ToneDSP
@testable import tonenode
@testable import ToneCommandLine

@Suite("measure's summary")
struct MeasureFormatterTests {
    /// A measurement shaped like a one-pole low-pass (a = 0.7) at 48 kHz.
    static func lowPass() -> ChainMeasurement {
        let a = 0.7
        let points = (0...239).map { step -> ChainMeasurement.ResponsePoint in
            let hz = 20 * pow(2, Double(step) / 24)
            let w = 2 * Double.pi * hz / 48000
            let re = 1 - a * cos(w), im = a * sin(w)
            return .init(frequencyHz: hz, gainDB: 20 * log10((1 - a) / (re * re + im * im).squareRoot()))
        }
        return ChainMeasurement(sampleRateHz: 48000, latencyFrames: 257.15, gainDB: -0.428, toneFrequencyHz: 1000,
                                measuredFrequencyHz: 1000.0001, thdPlusNoiseDB: -47.22, response: points,
                                sweepStartHz: 20, sweepEndHz: 20000)
    }

    @Test func humanSummaryNamesEveryFigure() {
        let text = MeasureFormatter.human(Self.lowPass(), periodFrames: 256, xruns: 0)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("latency") && lines[0].contains("257.150 frames") && lines[0].contains("5.3573 ms"))
        #expect(lines[1].contains("-0.428 dB") && lines[1].contains("1000 Hz"))
        #expect(lines[2].contains("1000.0001 Hz") && lines[2].contains("shift +0.0001 Hz"))
        #expect(lines[3].contains("-47.2 dB"))
        // 3 dB below the peak (0 dB at 20 Hz): the analytic corner is 2755 Hz; the first 1/24-octave point past it.
        #expect(lines[4].contains("within -14.76 … -0.00 dB; −3 dB from 2.8k Hz"), "\(lines[4])")
        #expect(!lines[4].contains("below"), "a low-pass has no lower corner")
        #expect(lines[5].hasPrefix("            20 -0.00 | 50") && lines[5].hasSuffix("10k -10.94 | 20k -14.76"), "\(lines[5])")
    }

    @Test func jsonIsOneObjectWithTheResponse() throws {
        let line = MeasureFormatter.json(Self.lowPass(), clientName: "meter \"1\"", periodFrames: 256, xruns: 2)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["client"] as? String == "meter \"1\"")
        #expect(object["latency_frames"] as? Double == 257.15)
        #expect(object["xruns"] as? Int == 2)
        #expect((object["response"] as? [[String: Double]])?.count == 240)
    }
}
