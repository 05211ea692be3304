import Foundation

/// How long the stress tests run. Short is the default and what CI runs;
/// long, for a release, is `TONENODE_STRESS=long` (docs/engineering/tests.md, "Stress").
struct StressLength {
    /// Rounds of nodes started and stopped together (`TogetherTests`).
    let rounds: Int
    /// How long the server stays SIGSTOPped (`StoppedServerTests`).
    let stopSeconds: Double
    /// How long the node's JACK thread is watched for page faults (`PageFaultTests`).
    let faultSeconds: Double

    static let short = StressLength(rounds: 3, stopSeconds: 3, faultSeconds: 10)
    static let long = StressLength(rounds: 50, stopSeconds: 10, faultSeconds: 60)
    static let current = ProcessInfo.processInfo.environment["TONENODE_STRESS"] == "long" ? long : short
}
