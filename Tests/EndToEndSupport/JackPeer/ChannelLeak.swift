import Foundation

/// A `JackPeer` behaviour: N audio inputs to N audio outputs, each output its
/// own input plus known fractions of the others' (`gains[i][j]`: of input j
/// in output i), so a crosstalk matrix has known answers.
public final class ChannelLeak: @unchecked Sendable {
    // @unchecked Sendable: set up before the peer activates; afterwards only
    // the JACK thread reads it (one peer per instance).
    private let gains: UnsafeMutablePointer<Float>
    private let channels: Int

    /// - Parameter gains: `channels × channels`; the diagonal is ignored (each output carries its own input at unity).
    public init(_ gains: [[Double]]) {
        channels = gains.count
        self.gains = .allocate(capacity: max(1, channels * channels))
        for i in 0..<channels {
            for j in 0..<channels { self.gains[i * channels + j] = i == j ? 1 : Float(gains[i][j]) }
        }
    }

    deinit { gains.deallocate() }

    /// JACK thread only.
    public func process(_ cycle: JackPeer.Cycle) {
        for i in 0..<channels {
            guard let output = cycle.audioOut(i) else { continue }
            for n in 0..<cycle.frames { output[n] = 0 }
            for j in 0..<channels {
                guard let input = cycle.audioIn(j) else { continue }
                let gain = gains[i * channels + j]
                for n in 0..<cycle.frames { output[n] += gain * input[n] }
            }
        }
    }
}
