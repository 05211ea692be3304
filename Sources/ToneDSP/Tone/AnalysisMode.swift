/// What the analysis reports.
public enum AnalysisMode: String, Codable, Sendable, CaseIterable {
    /// The most prominent single tone: frequency, level, SNR (the default).
    case tone
    /// The fundamental of a (possibly harmonic-rich) sound, with its note name and cents.
    case pitch
}
