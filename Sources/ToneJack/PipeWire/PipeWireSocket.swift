import Foundation

/// PipeWire's socket, where PipeWire's libjack connects: `pipewire-0` (or the
/// server name a client opened with, or `$PIPEWIRE_REMOTE`) in
/// `$PIPEWIRE_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR`. A killed daemon leaves
/// the file behind and refuses; a restarted one binds a new one. So
/// `ServerWatch` watches it as it watches jack2's: PipeWire's libjack
/// (0.3.65) says nothing to its clients when the daemon dies.
enum PipeWireSocket {
    /// - Parameter serverName: as given to the client's open; nil or "default": PipeWire's default remote.
    static func path(serverName: String?) -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"] else { return nil }
        let remote = serverName.flatMap { $0 == "default" ? nil : $0 } ?? environment["PIPEWIRE_REMOTE"] ?? "pipewire-0"
        return remote.hasPrefix("/") ? remote : directory + "/" + remote
    }

    /// Whether a PipeWire listens at its default socket (a plain `connect`, never
    /// libjack): where jackd2's libjack finds no server, PipeWire may be the
    /// JACK server the user meant (`JackError.serverUnreachable` says so).
    static var defaultIsListening: Bool {
        path(serverName: nil).map { JackServerSocket.knock(path: $0) == .listening } ?? false
    }
}
