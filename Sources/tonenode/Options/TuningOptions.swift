import ArgumentParser
import ToneCore
import ToneDSP

/// The reference pitch, shared by pitch naming (`--mode pitch`) and MIDI notes.
struct TuningOptions: ParsableArguments {
    @Option(Parameters.a4, parsing: .unconditional)
    var a4: Double

    var temperament: EqualTemperament { EqualTemperament(a4Hz: a4) }

    func validate() throws {
        try NodeSettings.validate([.a4]) { $0.a4Hz = a4 }
    }
}
