import ArgumentParser
import ToneCore
import ToneDSP

/// The reference pitch, shared by pitch naming (`--mode pitch`) and MIDI notes.
struct TuningOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frequency of A4 in Hz for note names, cents and MIDI notes (380…500).", valueName: "hz"))
    var a4 = 440.0

    var temperament: EqualTemperament { EqualTemperament(a4Hz: a4) }

    func validate() throws {
        try NodeSettings.validate([.a4]) { $0.a4Hz = a4 }
    }
}
