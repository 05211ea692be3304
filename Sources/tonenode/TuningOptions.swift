import ArgumentParser
import ToneDSP

/// The reference pitch, shared by pitch naming (`--mode pitch`) and MIDI notes.
struct TuningOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frequency of A4 in Hz for note names, cents and MIDI notes (380…500).", valueName: "hz"))
    var a4 = 440.0

    var temperament: EqualTemperament { EqualTemperament(a4Hz: a4) }

    func validate() throws {
        guard a4.isFinite, EqualTemperament.a4RangeHz.contains(a4) else {
            throw ValidationError("--a4 \(a4) must be a frequency in Hz from 380 to 500")
        }
    }
}
