/// Conversions between linear values and decibels.
public enum Decibels {
    /// Peak amplitude for a level in dBFS (0 dBFS = full-scale sine peak 1.0, AES17).
    public static func amplitude(dbfs: Double) -> Double { pow10(dbfs / 20) }

    /// Level in dBFS of a sine with this peak amplitude.
    public static func dbfs(amplitude: Double) -> Double { 20 * log10(amplitude) }

    /// Decibels of a power ratio.
    public static func power(ratio: Double) -> Double { 10 * log10(ratio) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) func pow10(_ x: Double) -> Double { pow(10, x) }
