import Foundation
import Testing
import ToneDSP
@testable import tonenode

@Suite("The live view of run")
struct LiveViewTests {
    @Test("the needle sits at the centre in tune and at the ends at ±50 cents", arguments: [
        (0.0, LiveView.barWidth / 2), (50.0, LiveView.barWidth - 1), (-50.0, 0), (80.0, LiveView.barWidth - 1),
        (25.0, LiveView.barWidth / 2 + LiveView.barWidth / 4),
    ])
    func needle(cents: Double, column: Int) throws {
        let bar = Array(LiveView.needle(cents: cents).dropFirst(2).prefix(LiveView.barWidth))
        #expect(bar.firstIndex(of: "|") == column, "\(LiveView.needle(cents: cents))")
    }

    @Test("the meter fills in proportion over 60 dB", arguments: [
        (0.0, LiveView.barWidth), (-60.0, 0), (-30.0, (LiveView.barWidth + 1) / 2), (-100.0, 0),
    ])
    func meter(dbfs: Double, filled: Int) {
        #expect(LiveView.meter(dbfs: dbfs).filter { $0 == "█" }.count == filled)
        #expect(LiveView.meter(dbfs: nil).filter { $0 == "█" }.isEmpty)
    }

    @Test("a tone is named with its cents; health is in the header")
    func lines() throws {
        var state = LiveViewState()
        state.clientName = "tn"
        state.sampleRateHz = 48000
        state.periodFrames = 64
        state.xruns = 3
        state.dspLoadPercent = 12.34
        state.tuning = EqualTemperament(a4Hz: 442)
        let e2 = state.tuning.frequencyHz(midiNote: 40) * pow(2, -12.5 / 1200)
        state.report = ToneReport(timeSeconds: 1, reading: ToneReading(frequencyHz: e2, levelDBFS: -6, snrDB: 40, rmsDBFS: -6))
        let text = LiveView.lines(state).joined(separator: "\n")
        #expect(text.contains("E2"))
        #expect(text.contains("-12.50 cents"))
        #expect(text.contains("xruns 3") && text.contains("DSP 12.3 %") && text.contains("64 frames/period"))
        state.report = ToneReport(timeSeconds: 2, reading: ToneReading(rmsDBFS: -70))
        #expect(LiveView.lines(state).joined().contains("no tone"))
        state.report = ToneReport(timeSeconds: 3, reading: .invalid)
        #expect(LiveView.lines(state).joined().contains("invalid input"))
    }
}
