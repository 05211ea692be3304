/// Reads one cable transmission from a whole recording (offline): the first
/// transmission `CableStreamReceiver` finds in it, the recording pushed at
/// once (so a file and a live input are read by the same code).
/// It never delivers a byte it cannot vouch for: a frame whose CRC fails is
/// missing, and the message is delivered only whole, its CRC-32 matching.
public struct CableDemodulator {
    public let geometry: CableGeometry

    public init(sampleRateHz: Double) throws {
        guard let geometry = CableGeometry(sampleRateHz: sampleRateHz) else {
            throw CableModulator.SetupError.sampleRate(CableGeometry.problem(sampleRateHz: sampleRateHz) ?? "bad sample rate")
        }
        self.geometry = geometry
    }

    /// The first transmission in `samples`; nil when no chirp was found.
    public func receive(_ samples: [Float]) -> CableReception? {
        let receptions = receiveAll(samples)
        // A chirp whose header could not be read is reported only when no transmission was.
        return receptions.first { $0.header != nil } ?? receptions.first
    }

    /// Every transmission in `samples`, in order (a recording of `send`'s segments holds several).
    public func receiveAll(_ samples: [Float]) -> [CableReception] {
        guard let receiver = try? CableStreamReceiver(sampleRateHz: geometry.sampleRateHz) else { return [] }
        return receiver.push(samples) + receiver.finish()
    }
}
