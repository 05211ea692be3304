import ArgumentParser
import ToneCore
import ToneDSP

/// The reference pitch, shared by pitch naming (`--mode pitch`) and MIDI notes.
public struct TuningOptions: ParsableArguments {
    public init() {}

    @Option(Parameters.a4, parsing: .unconditional)
    public var a4: Double

    public var temperament: EqualTemperament { EqualTemperament(a4Hz: a4) }

    public func validate() throws {
        try NodeSettings.validate([.a4]) { $0.a4Hz = a4 }
    }
}
