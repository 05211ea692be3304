import ArgumentParser
import ToneCore
import ToneDSP

/// A frequency band written `LO:HI` in Hz.
public struct FrequencyBand: ExpressibleByArgument {
    public var lowHz: Double
    public var highHz: Double

    public init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]) else { return nil }
        lowHz = low
        highHz = high
    }

    public static var defaultValueDescription: String { "\(format(Parameters.band.defaultValue)):Nyquist" }
}
