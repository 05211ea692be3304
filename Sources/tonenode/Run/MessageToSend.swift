import ToneDSP
import ToneModem

/// A message `run --send` plays once.
struct MessageToSend: Sendable {
    let bytes: [UInt8]
    let profile: MessageFileProfile
    let levelDBFS: Double
}
