import Testing
import ToneDSP
@testable import tonenode

/// `measure` whose every attempt saw xruns names the parts of the kept run they fell in.
@Suite("measure: which figures an xrun touched")
struct MeasureXrunWarningTests {
    @Test("one line naming the parts; the old advice when none is known")
    func warning() throws {
        var plan = MeasurementSignal.Plan(sampleRateHz: 48000)
        plan.sweepSeconds = 1
        plan.noiseSeconds = 1
        let signal = MeasurementSignal(plan: try plan.validated())
        let noise = signal.noiseStartFrame + 24_000
        #expect(MeasureCommand.xrunWarning(signal: signal, xruns: 1, xrunFrames: [noise], periodFrames: 256)
                == "warning: xruns in each of 3 attempts (1 in the one kept); figures from the idle noise and the "
                + "−60 dBFS tone (noise) may be wrong; the rest were measured clean")
        #expect(MeasureCommand.xrunWarning(signal: signal, xruns: 2, xrunFrames: [], periodFrames: 256)
                == "warning: xruns in each of 3 attempts (2 in the one kept); if a figure looks wrong, measure again")
    }
}
