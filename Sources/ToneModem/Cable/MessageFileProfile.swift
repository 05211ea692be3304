/// What `encode`, `decode`, `send` and `receive` take for `--profile`: one of
/// the tone profiles, or `cable`, the OFDM modem for paths that are not air
/// (files, JACK, plugins). `run --send-profile/--receive-profile` take it too.
public enum MessageFileProfile: Sendable, Equatable, CaseIterable, RawRepresentable {
    case tones(ModemProfile)
    case cable

    public static var allCases: [MessageFileProfile] { ModemProfile.allCases.map { .tones($0) } + [.cable] }

    public init?(rawValue: String) {
        if rawValue == "cable" {
            self = .cable
        } else if let profile = ModemProfile(rawValue: rawValue) {
            self = .tones(profile)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .tones(let profile): profile.rawValue
        case .cable: "cable"
        }
    }

    /// Why this profile cannot run at `sampleRateHz`, or nil.
    public func problem(sampleRateHz: Double) -> String? {
        switch self {
        case .tones(let profile): profile.parameters.problem(sampleRateHz: sampleRateHz)
        case .cable: CableGeometry.problem(sampleRateHz: sampleRateHz)
        }
    }
}
