import Foundation
import Testing

/// `jalv` (Debian `jalv`) hosting one LV2 plugin on a test's server: a real
/// plugin host as a JACK client. Started at `init` and waited for until its
/// first audio output exists; stopped by PID when released (or by `stop`).
///
/// jalv's console reads commands on stdin and exits at end of file (with
/// stdin on /dev/null it quits at once), so its stdin is a pipe kept open.
/// Its ports are named by the plugin's port symbols (`NAME:in`, `NAME:out_1`).
/// Test thread only.
public final class JalvHost {
    public static let executable = "/usr/bin/jalv"

    /// The plugins installed (`lv2ls`, from lilv-utils), read once.
    public static let installedPlugins: Set<String> = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lv2ls"),
              let listed = try? runCommand([], executable: "/usr/bin/lv2ls", timeoutSeconds: 30) else { return [] }
        return Set(listed.stdoutLines)
    }()

    /// Why a test with these plugins cannot run here, or nil when it can.
    public static func missing(_ uris: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return "jalv is not installed" }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lv2ls") else { return "lv2ls (lilv-utils) is not installed" }
        let absent = uris.filter { !installedPlugins.contains($0) }
        return absent.isEmpty ? nil : "LV2 plugins not installed: " + absent.joined(separator: ", ")
    }

    public let name: String
    public let command: LiveCommand

    /// - Parameters:
    ///   - controls: control port symbol → value (`jalv -c SYM=VAL`).
    ///   - firstOutput: the audio output port (short name) to wait for.
    public init(name: String, uri: String, server: String, controls: [String: Double] = [:],
                firstOutput: String) throws {
        self.name = name
        let settings = controls.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
        command = try LiveCommand(["-x", "-n", name] + settings + [uri], executable: Self.executable,
                                  environment: ["JACK_DEFAULT_SERVER": server], input: .pipe, stopGraceSeconds: 2)
        try waitForPort("\(name):\(firstOutput)", server: server, timeoutSeconds: 10)
    }

    deinit { stop() }

    public func stop() { command.stop() }
}
