import EndToEndSupport
import Testing
import ToneCore
import ToneJack

/// Settings for a test node on `server` (FFTW plans by estimate: fast start).
func nodeSettings(_ server: PrivateJackServer, client: String) -> NodeSettings {
    var settings = NodeSettings()
    settings.serverName = server.name
    settings.clientName = client
    settings.planning = .estimate
    return settings
}

/// Every test that talks to a JACK server runs in this serialized suite.
/// libjack (jackd2) keeps one shared-memory registry per process, so clients
/// in one process must not talk to two different servers at the same time;
/// each test starts its own server, so they take turns.
@Suite("Against real JACK servers", .serialized)
struct JackServerTests {}
