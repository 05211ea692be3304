import ToneCore
import ToneJack

/// Settings for a test node on `server` (FFTW plans by estimate: fast start).
public func nodeSettings(_ server: PrivateJackServer, client: String) -> NodeSettings {
    var settings = NodeSettings()
    settings.serverName = server.name
    settings.clientName = client
    settings.planning = .estimate
    return settings
}
