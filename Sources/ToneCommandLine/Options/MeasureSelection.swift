import ArgumentParser
import Foundation
import ToneCore

/// `measure --what response,harmonics`: which measurements to make and report
/// (parsed by ArgumentParser; `all` is every measurement but crosstalk and midi).
public struct MeasureSelection: Equatable, Sendable {
    /// One measurement, by the name `--what` takes.
    public enum Kind: String, CaseIterable, Comparable, Sendable {
        /// Latency, gain, frequency, THD+N at the tone, magnitude response (today's default).
        case response
        /// H2…H5 and THD versus frequency, phase and group delay, impulse response (same sweep: no extra time).
        case harmonics
        /// THD+N and gain versus level at the test tone (`LevelSweepAnalyzer.defaultStepsDBFS`).
        case levels
        /// AES17 idle noise (unweighted, A-weighted), SNR, dynamic range, hum lines.
        case noise
        /// SMPTE (60 Hz + 7 kHz, 4:1) and CCIF (19 + 20 kHz) intermodulation.
        case imd
        /// The crosstalk matrix (needs --channels 2 or more; one sweep per channel more).
        case crosstalk
        /// MIDI-to-audio latency and jitter of a synth (needs --connect-midi).
        case midi

        public static func < (a: Kind, b: Kind) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// In the order of `Kind.allCases`, no repeats.
    public let kinds: [Kind]

    /// `Parameters.Measure.what`'s default (`response`).
    public static let `default` = MeasureSelection(argument: Parameters.Measure.what.defaultValue) ?? MeasureSelection(kinds: [.response])

    public init(kinds: [Kind]) { self.kinds = Array(Set(kinds)).sorted() }

    public init?(argument: String) {
        var kinds: [Kind] = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            // `all`: everything that needs no more than the one audio chain (crosstalk and midi are asked for by name).
            if trimmed == "all" { kinds += Kind.allCases.filter { $0 != .crosstalk && $0 != .midi }; continue }
            guard let kind = Kind(rawValue: trimmed) else { return nil }
            kinds.append(kind)
        }
        guard !kinds.isEmpty else { return nil }
        self.init(kinds: kinds)
    }

    /// A `--what` list that names no measurement, as one line.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String {
            "give a comma-separated list of " + MeasureSelection.allValueStrings.joined(separator: ", ")
        }
    }

    /// `--what`'s text, or the problem with it (ArgumentParser prints it after the value it was given).
    public static func parse(_ argument: String) throws -> MeasureSelection {
        guard let selection = MeasureSelection(argument: argument) else { throw Problem() }
        return selection
    }

    public var defaultValueDescription: String { kinds.map(\.rawValue).joined(separator: ",") }
    public static var allValueStrings: [String] { Kind.allCases.map(\.rawValue) + ["all"] }

    public func contains(_ kind: Kind) -> Bool { kinds.contains(kind) }

    /// Whether only `midi` is asked for: nothing goes through an audio chain,
    /// so `out` need not be connected and the sweep and tone are not analysed.
    public var isMIDIOnly: Bool { kinds == [.midi] }
}
