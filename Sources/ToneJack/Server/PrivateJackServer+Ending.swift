import Foundation

extension PrivateJackServer {
    /// The last line jackd printed past its banner (which ends with its
    /// "self-connect-mode is …" line), or "" when it printed nothing more.
    static func lastLine(ofLog log: String) -> String {
        let lines = log.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let pastBanner = lines.lastIndex { $0.hasPrefix("self-connect-mode") }.map { lines[($0 + 1)...] } ?? lines[...]
        return pastBanner.last { !$0.isEmpty } ?? ""
    }
}

extension Process {
    /// How an ended process ended: "exit status N" or "signal N".
    var howItEnded: String {
        terminationReason == .uncaughtSignal ? "signal \(terminationStatus)" : "exit status \(terminationStatus)"
    }
}
