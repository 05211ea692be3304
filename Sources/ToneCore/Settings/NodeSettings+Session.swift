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
}
