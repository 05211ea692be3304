import ToneDSP

// MARK: - What a session keeps

extension NodeSettings {
    /// The keys a session file holds, in the order they are read and written:
    /// the node's declarations' (`Parameters.node`).
    ///
    /// Every stored property of `NodeSettings` is either saved here (under its
    /// own name) or in `perLaunchProperties` (ToneCoreTests checks that against
    /// a `Mirror`), so a new option cannot be left out of the session by accident.
    public static let sessionFields: [SessionField] = Parameters.node.flatMap(\.sessionFields)

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
    /// Every stored property is either saved or per launch, so this is `launch`
    /// with every saved field of these settings.
    public func withPerLaunchProperties(of launch: NodeSettings) -> NodeSettings {
        var merged = launch
        for field in Self.sessionFields { field.copy(from: self, to: &merged) }
        return merged
    }
}
