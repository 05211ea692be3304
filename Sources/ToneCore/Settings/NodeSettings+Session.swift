import ToneDSP

// MARK: - What a session keeps

extension NodeSettings {
    /// The stored properties a session file keeps, under their own names.
    ///
    /// Every stored property of `NodeSettings` is either here or in
    /// `perLaunchProperties` (ToneCoreTests checks that against a `Mirror`),
    /// and `visitSessionFields` switches over every case, so a new option
    /// cannot be left out of the session by accident.
    public enum SessionField: String, CodingKey, CaseIterable, Sendable {
        // Written by every version: a file without one of these is not a session file.
        case frequencyHz, levelDBFS, muted, fftSize, hopFrames, lowHz, highHz, snrMinDB, maxTones, a4Hz, channels
        // Added later: a file from an older version leaves them at their defaults.
        case mode, pitchLowHz, pitchHighHz, bendRangeSemitones, receivesMessages

        /// Whether a file must hold this key (the first version wrote all of
        /// these; `highHz` is then absent only when it was nil).
        var isRequired: Bool {
            switch self {
            case .frequencyHz, .levelDBFS, .muted, .fftSize, .hopFrames, .lowHz, .snrMinDB, .maxTones, .a4Hz, .channels:
                true
            case .highHz, .mode, .pitchLowHz, .pitchHighHz, .bendRangeSemitones, .receivesMessages:
                false
            }
        }
    }

    /// Properties that belong to one launch and are not saved: the session
    /// manager gives the client name, the server is the session's, and its
    /// JACK tools restore every connection; the planner, the analyses a
    /// subcommand runs and the profiles `receive` listens for come from the
    /// command; `--no-metadata` answers the user's JACK setup of the day.
    public static let perLaunchProperties: Set<String> = [
        "clientName", "serverName", "connectIn", "connectOut", "connectMidi", "loopback",
        "planning", "analyzesTones", "messageProfiles", "receivesCable", "usesMetadata", "ports",
    ]

    /// These settings with the per-launch properties of `launch` (everything a session does not keep).
    public func withPerLaunchProperties(of launch: NodeSettings) -> NodeSettings {
        var merged = self
        merged.clientName = launch.clientName
        merged.serverName = launch.serverName
        merged.connectIn = launch.connectIn
        merged.connectOut = launch.connectOut
        merged.connectMidi = launch.connectMidi
        merged.loopback = launch.loopback
        merged.planning = launch.planning
        merged.analyzesTones = launch.analyzesTones
        merged.messageProfiles = launch.messageProfiles
        merged.receivesCable = launch.receivesCable
        merged.usesMetadata = launch.usesMetadata
        merged.ports = launch.ports
        return merged
    }

    /// Hands each saved property, with its key, to `visitor` (which may change it).
    mutating func visitSessionFields<Visitor: SessionFieldVisitor>(_ visitor: inout Visitor) throws {
        for field in SessionField.allCases {
            switch field {
            case .frequencyHz: try visitor.visit(&frequencyHz, field)
            case .levelDBFS: try visitor.visit(&levelDBFS, field)
            case .muted: try visitor.visit(&muted, field)
            case .fftSize: try visitor.visit(&fftSize, field)
            case .hopFrames: try visitor.visit(&hopFrames, field)
            case .lowHz: try visitor.visit(&lowHz, field)
            case .highHz: try visitor.visit(&highHz, field)
            case .snrMinDB: try visitor.visit(&snrMinDB, field)
            case .maxTones: try visitor.visit(&maxTones, field)
            case .a4Hz: try visitor.visit(&a4Hz, field)
            case .channels: try visitor.visit(&channels, field)
            case .mode: try visitor.visit(&mode, field)
            case .pitchLowHz: try visitor.visit(&pitchLowHz, field)
            case .pitchHighHz: try visitor.visit(&pitchHighHz, field)
            case .bendRangeSemitones: try visitor.visit(&bendRangeSemitones, field)
            case .receivesMessages: try visitor.visit(&receivesMessages, field)
            }
        }
    }
}

/// Sees each saved property of a `NodeSettings` in turn (encoding, decoding).
protocol SessionFieldVisitor {
    mutating func visit<Value: Codable>(_ value: inout Value, _ field: NodeSettings.SessionField) throws
}

// MARK: - Encoding

/// Writes each field under its key; a nil optional as an explicit `null`.
struct SessionFieldEncoder: SessionFieldVisitor {
    var container: KeyedEncodingContainer<NodeSettings.SessionField>

    mutating func visit<Value: Codable>(_ value: inout Value, _ field: NodeSettings.SessionField) throws {
        try container.encode(value, forKey: field)
    }
}

/// Reads each field that is present over the value already there; a missing
/// required key is an error, a missing later key keeps the default.
struct SessionFieldDecoder: SessionFieldVisitor {
    let container: KeyedDecodingContainer<NodeSettings.SessionField>

    mutating func visit<Value: Codable>(_ value: inout Value, _ field: NodeSettings.SessionField) throws {
        if container.contains(field) {
            value = try container.decode(Value.self, forKey: field)
        } else if field.isRequired {
            throw DecodingError.keyNotFound(field, DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "no \(field.rawValue)"))
        }
    }
}
