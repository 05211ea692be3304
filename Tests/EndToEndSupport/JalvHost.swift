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
    ///   - environment: added to jalv's (`LV2_PATH` for a bundle not installed).
    public init(name: String, uri: String, server: String, controls: [String: Double] = [:],
                firstOutput: String, environment: [String: String] = [:]) throws {
        self.name = name
        let settings = controls.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
        // Through stdbuf (it execs jalv: one PID): jalv's stdout, a file, is then
        // line-buffered, so `monitors` answers as it prints.
        command = try LiveCommand(["-oL", Self.executable, "-x", "-n", name] + settings + [uri], executable: "/usr/bin/stdbuf",
                                  environment: environment.merging(["JACK_DEFAULT_SERVER": server]) { $1 }, input: .pipe, stopGraceSeconds: 2)
        try waitForPort("\(name):\(firstOutput)", server: server, timeoutSeconds: 10)
    }

    deinit { stop() }

    /// The plugin's control ports as jalv's `monitors` command prints them
    /// (`SYMBOL = VALUE`, inputs and outputs, in port order up to `last`, the
    /// last control port's symbol), or nil if it did not answer in time.
    public func monitors(last: String, timeoutSeconds: Double = 5) -> [String: Double]? {
        let start = command.lineCount
        command.send("monitors")
        var values: [String: Double] = [:]
        let answered = command.waitUntil(timeoutSeconds: timeoutSeconds) { command in
            values = [:]
            for line in command.lines(from: start) {
                // The console's prompt ("> ") may precede the first line.
                let parts = line.replacingOccurrences(of: "> ", with: "").split(separator: "=")
                guard parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
                values[parts[0].trimmingCharacters(in: .whitespaces)] = value
            }
            return values[last] != nil
        }
        return answered ? values : nil
    }

    public func stop() { command.stop() }
}
