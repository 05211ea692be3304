import Foundation
import Testing
import ToneDSP
@testable import tonenode
@testable import ToneCommandLine

/// A report with no tone from an input nothing feeds says "in: not connected"
/// (text, live view) and `"connected":false` (JSON); every other line is as before.
@Suite("an input nothing feeds says so")
struct UnconnectedInputTests {
    static func silence(channel: Int = 0) -> ToneReport {
        ToneReport(timeSeconds: 3, reading: ToneReading(), channel: channel)
    }

    @Test("marked only with no tone, only on an unconnected channel")
    func marking() {
        var report = Self.silence(channel: 1)
        report.markUnconnected([0])
        #expect(!report.unconnected)
        report.markUnconnected([1])
        #expect(report.unconnected)
        var tone = ToneReport(timeSeconds: 1, reading: ToneReading(frequencyHz: 1000, levelDBFS: -6, snrDB: 90, rmsDBFS: -6))
        tone.markUnconnected([0])
        #expect(!tone.unconnected)
        var invalid = ToneReport(timeSeconds: 1, reading: .invalid)
        invalid.markUnconnected([0])
        #expect(!invalid.unconnected)
    }

    @Test("text, JSON and the live view")
    func lines() {
        var report = Self.silence()
        #expect(ReportFormatter.human(report) == "     3.000 s   no tone          (silence)")
        #expect(ReportFormatter.json(report)
                == #"{"time_s":3.0,"freq_hz":null,"level_dbfs":null,"snr_db":null,"rms_dbfs":null,"invalid":false}"#)
        report.markUnconnected([0])
        #expect(ReportFormatter.human(report) == "     3.000 s   in: not connected")
        #expect(ReportFormatter.human(report, channel: 2) == "     3.000 s  ch 2   in: not connected")
        #expect(ReportFormatter.json(report) == #"{"time_s":3.0,"freq_hz":null,"level_dbfs":null,"snr_db":null,"#
                + #""rms_dbfs":null,"invalid":false,"connected":false}"#)
        var state = LiveViewState()
        state.report = report
        #expect(LiveView.lines(state)[1] == "      3.000 s   in: not connected")
    }

    @Test("the sink that writes on the worker's thread marks with what the supervisor last saw")
    func sink() throws {
        let file = try LineWriterTests.TempFile()
        let sink = ReportLineSink(json: false, listTones: false, channels: 1, durationSeconds: nil, stop: {},
                                  writer: LineWriter(descriptor: file.descriptor, holdSeconds: 0))
        sink.take(Self.silence())
        sink.inputsUnconnected([0])
        sink.take(Self.silence())
        sink.inputsUnconnected([])
        sink.take(Self.silence())
        sink.writer.finish(waitingAtMostSeconds: 1)
        #expect(file.text == ["no tone          (silence)", "in: not connected", "no tone          (silence)"]
            .map { "     3.000 s   \($0)\n" }.joined())
    }
}
