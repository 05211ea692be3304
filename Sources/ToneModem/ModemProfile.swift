/// A choice of band and speed for messages sent as tones.
public enum ModemProfile: String, CaseIterable, Sendable {
    /// 18–20 kHz, about 42 B/s: inaudible to most adults, robust to reverb and noise.
    case ultrasonic
    /// 18–20 kHz, about 106 B/s: long symbols without guard, the room's echo
    /// estimated from the preamble and reference symbol and undone by the receiver.
    case ultrasonicFast = "ultrasonic-fast"
    /// 1–5 kHz, about 59 B/s: a short hiss; long guard intervals for reverberant rooms.
    case audible
    /// 1–5 kHz, about 105 B/s: the long symbols and guard of `audible`, DQPSK, for reverberant rooms.
    case audibleFast = "audible-fast"

    /// The waveform this profile sends.
    public var parameters: ModemParameters {
        switch self {
        case .ultrasonic:
            ModemParameters(profile: self, lowHz: 18_000, highHz: 20_000, chirpLowHz: 18_100, chirpHighHz: 19_900,
                            chirpSeconds: 0.05, gapSeconds: 0.01, firstSubcarrierHz: 18_125, subcarrierCount: 71,
                            symbolSeconds: 0.04, guardSeconds: 0.0075, taperSeconds: 0.004,
                            bitsPerSubcarrier: 1, punctured: false, extraDataSymbols: 3)
        case .ultrasonicFast:
            ModemParameters(profile: self, lowHz: 18_000, highHz: 20_000, chirpLowHz: 18_100, chirpHighHz: 19_900,
                            chirpSeconds: 0.025, gapSeconds: 0, firstSubcarrierHz: 18_050, subcarrierCount: 115,
                            symbolSeconds: 0.06, guardSeconds: 0.0025, taperSeconds: 0.0025,
                            bitsPerSubcarrier: 2, punctured: false, equalizerSeconds: 0.1)
        case .audible:
            ModemParameters(profile: self, lowHz: 1_000, highHz: 5_000, chirpLowHz: 1_100, chirpHighHz: 4_900,
                            chirpSeconds: 0.05, gapSeconds: 0.01, firstSubcarrierHz: 1_125, subcarrierCount: 151,
                            symbolSeconds: 0.04, guardSeconds: 0.02, taperSeconds: 0.01,
                            bitsPerSubcarrier: 1, punctured: false, extraDataSymbols: 1)
        case .audibleFast:
            ModemParameters(profile: self, lowHz: 1_000, highHz: 5_000, chirpLowHz: 1_100, chirpHighHz: 4_900,
                            chirpSeconds: 0.025, gapSeconds: 0.005, firstSubcarrierHz: 1_125, subcarrierCount: 151,
                            symbolSeconds: 0.04, guardSeconds: 0.02, taperSeconds: 0.01,
                            bitsPerSubcarrier: 2, punctured: false)
        }
    }
}
