import ToneDSP

/// A message `run --send` plays once.
struct MessageToSend: Sendable {
    let bytes: [UInt8]
    let profile: ModemProfile
    let levelDBFS: Double
}
