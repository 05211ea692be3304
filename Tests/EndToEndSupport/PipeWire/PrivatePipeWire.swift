import Foundation
import Testing

/// A headless PipeWire for one test: `pipewire` and `wireplumber` under
/// `dbus-run-session`, with an `XDG_RUNTIME_DIR` of their own (mkdtemp, mode
/// 700), so no other PipeWire (the desktop's, another test's) is touched.
/// Clients reach it through `pw-jack` (PipeWire's libjack) with that
/// directory (`run`, `live`). Released or `stop`ped, it ends wireplumber and
/// pipewire by PID (SIGTERM, waited for; dbus-run-session then ends its bus)
/// and removes the directory. Test thread only.
///
/// Under PipeWire there are no `system:` ports, and a client's own `out`
/// wired to its own `in` carries silence (docs/pipewire.md).
public final class PrivatePipeWire {
    /// What the last `prettyNames()` read: pw-metadata's status and output, for a failure's message.
    public private(set) var lastMetadataDump = ""
    public static let pwJack = "/usr/bin/pw-jack"
    /// The private runtime directory (PipeWire's socket `pipewire-0` is in it).
    public let runtimeDirectory: String
    private var session: LiveCommand
    private var stopped = false

    /// What a client process needs in its environment to reach this PipeWire.
    public var environment: [String: String] { ["XDG_RUNTIME_DIR": runtimeDirectory] }

    /// Starts PipeWire and WirePlumber and waits (bounded) until a JACK
    /// client can list the graph and WirePlumber has made its metadata.
    public init(timeoutSeconds: Double = 20) throws {
        var template = Array((NSTemporaryDirectory() + "tn-pw-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure.noRuntimeDirectory(errno: errno) }
        runtimeDirectory = String(cString: made)
        chmod(runtimeDirectory, 0o700)
        session = try Self.startSession(runtimeDirectory)
        try waitUntilReady(timeoutSeconds: timeoutSeconds)
    }

    /// The shell writes each daemon's PID, so `stop` ends them by PID.
    private static func startSession(_ runtimeDirectory: String) throws -> LiveCommand {
        let script = #"pipewire & echo $! > "$XDG_RUNTIME_DIR/pipewire.pid"; "#
            + #"wireplumber & echo $! > "$XDG_RUNTIME_DIR/wireplumber.pid"; wait"#
        return try LiveCommand(["--", "sh", "-c", script], executable: "/usr/bin/dbus-run-session",
                               environment: ["XDG_RUNTIME_DIR": runtimeDirectory], stopGraceSeconds: 5)
    }

    private func waitUntilReady(timeoutSeconds: Double) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while !isReady() {
            guard Date() < deadline, session.isRunning else {
                let log = session.stderr
                stop()
                throw Failure.didNotComeUp(seconds: timeoutSeconds, log: log)
            }
            usleep(50_000)
        }
    }

    /// Kills pipewire and wireplumber with `signal` (SIGKILL: a crash), waits
    /// `downSeconds`, and starts them again in the same runtime directory
    /// (the clients' environment stays right); returns once they answer.
    public func restart(signal: Int32 = SIGKILL, downSeconds: Double = 1, timeoutSeconds: Double = 20) throws {
        endDaemons(signal: signal)
        if session.exitStatus(timeoutSeconds: 5) == nil { session.stop() }
        usleep(UInt32(downSeconds * 1e6))
        session = try Self.startSession(runtimeDirectory)
        try waitUntilReady(timeoutSeconds: timeoutSeconds)
    }

    deinit { stop() }

    private func isReady() -> Bool {
        guard let lsp = try? run([], executable: "jack_lsp", timeoutSeconds: 2, recordsTimeout: false),
              lsp.finished, lsp.status == 0,
              let metadata = try? runCommand(["-n", "default"], executable: "/usr/bin/pw-metadata", environment: environment,
                                             timeoutSeconds: 2, recordsTimeout: false) else { return false }
        return metadata.stdout.contains("Found \"default\"")
    }

    // MARK: - Clients

    /// `pw-jack EXECUTABLE ARGUMENTS` run to completion (see `runCommand`).
    /// - Parameters:
    ///   - executable: `tonenode` (the built product), a tool in /usr/bin, or an absolute path.
    ///   - extra: more environment for the client (`PipeWire.splitNames`).
    public func run(_ arguments: [String], executable: String = "tonenode", environment extra: [String: String] = [:],
                    timeoutSeconds: Double = 30, recordsTimeout: Bool = true,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        try runCommand([Self.path(of: executable)] + arguments, executable: Self.pwJack,
                       environment: environment.merging(extra) { $1 },
                       timeoutSeconds: timeoutSeconds, recordsTimeout: recordsTimeout, sourceLocation: sourceLocation)
    }

    /// `pw-jack EXECUTABLE ARGUMENTS` started and left running (see `LiveCommand`).
    public func live(_ arguments: [String], executable: String = "tonenode", environment extra: [String: String] = [:],
                     input: LiveCommand.Input = .none) throws -> LiveCommand {
        try LiveCommand([Self.path(of: executable)] + arguments, executable: Self.pwJack,
                        environment: environment.merging(extra) { $1 }, input: input)
    }

    /// Forces the graph's quantum (`pw-metadata -n settings 0 clock.force-quantum N`); 0 releases it.
    public func forceQuantum(_ frames: Int) throws {
        let result = try runCommand(["-n", "settings", "0", "clock.force-quantum", String(frames)],
                                    executable: "/usr/bin/pw-metadata", environment: environment, timeoutSeconds: 5)
        if result.status != 0 { Issue.record("pw-metadata exited \(result.status): \(result.stderr)") }
    }

    /// Forces the graph's sample rate (`pw-metadata -n settings 0 clock.force-rate N`); 0 releases it.
    public func forceRate(_ hz: Int) throws {
        let result = try runCommand(["-n", "settings", "0", "clock.force-rate", String(hz)],
                                    executable: "/usr/bin/pw-metadata", environment: environment, timeoutSeconds: 5)
        if result.status != 0 { Issue.record("pw-metadata exited \(result.status): \(result.stderr)") }
    }

    /// The quantum the graph runs at now (`jack_bufsize`).
    public func quantum() throws -> Int? {
        Int(try run([], executable: "jack_bufsize", timeoutSeconds: 5).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func path(of executable: String) -> String {
        if executable.hasPrefix("/") { return executable }
        return executable == "tonenode" ? productsDirectory.appendingPathComponent(executable).path : "/usr/bin/\(executable)"
    }

    // MARK: - Stopping

    /// Ends wireplumber, then pipewire, by PID (SIGTERM, each waited for up
    /// to 5 s), then the session, and removes the directory. Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        endDaemons(signal: SIGTERM)
        // Its shell's `wait` returns with the daemons gone; dbus-run-session then ends the bus and exits.
        if session.exitStatus(timeoutSeconds: 5) == nil { session.stop() }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// Signals wireplumber, then pipewire, by PID, each waited for up to 5 s (then SIGKILL).
    private func endDaemons(signal: Int32) {
        for daemon in ["wireplumber", "pipewire"] {
            let pidFile = "\(runtimeDirectory)/\(daemon).pid"
            guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                  let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { continue }
            unlink(pidFile)
            kill(pid, signal)
            // Not our child (the session shell's, which reaps it): gone once kill(pid, 0) fails.
            let deadline = Date().addingTimeInterval(5)
            while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case noRuntimeDirectory(errno: Int32)
        case didNotComeUp(seconds: Double, log: String)

        public var description: String {
            switch self {
            case .noRuntimeDirectory(let code): "mkdtemp for XDG_RUNTIME_DIR failed: \(String(cString: strerror(code)))"
            case .didNotComeUp(let seconds, let log): "PipeWire did not answer pw-jack jack_lsp within \(seconds) s: \(log)"
            }
        }
    }
}

extension PrivatePipeWire {
    /// What a JACK client sets (`PIPEWIRE_PROPS`) to see PipeWire's other
    /// names: `jack.short-name` (a node's `node.nick` as its client name, not
    /// its description) and `jack.merge-monitor = false` (a sink's monitor
    /// ports as a client `<name> Monitor`).
    public static let splitNames = ["PIPEWIRE_PROPS": "{ jack.short-name=true jack.merge-monitor=false }"]

    /// Makes a sink as a sound card's would look, with no card: PipeWire's
    /// null sink (`pw-cli create-node adapter`, lingering after pw-cli exits),
    /// two channels FL/FR. Its JACK client is `description` (`nick` with
    /// `splitNames`), ports `playback_FL`, `playback_FR` (inputs, physical) and
    /// `monitor_FL`, `monitor_FR` (outputs: the input passed on, in the same quantum).
    public func createSink(name: String, description: String, nick: String) throws {
        let properties = "{ factory.name=support.null-audio-sink node.name=\"\(name)\" node.description=\"\(description)\" "
            + "node.nick=\"\(nick)\" media.class=Audio/Sink object.linger=true audio.position=[FL FR] }"
        let result = try runCommand(["create-node", "adapter", properties], executable: "/usr/bin/pw-cli",
                                    environment: environment, timeoutSeconds: 10)
        if result.status != 0 { Issue.record("pw-cli create-node exited \(result.status): \(result.stderr)") }
        if !waitForPort("\(description):monitor_FR") { Issue.record("no sink '\(description)' in \(jackPorts())") }
    }

    /// Every port in the graph (`pw-jack jack_lsp`).
    public func jackPorts() -> [String] {
        (try? run([], executable: "jack_lsp", timeoutSeconds: 5).stdoutLines) ?? []
    }

    /// Waits (bounded) until `port` is in the graph; false if it is not after `timeoutSeconds`.
    public func waitForPort(_ port: String, timeoutSeconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if jackPorts().contains(port) { return true }
            usleep(100_000)
        }
        return false
    }
}

extension PrivatePipeWire {
    /// The values of every JACK pretty name (`http://jackaudio.org/metadata/pretty-name`)
    /// in PipeWire's `default` metadata, where PipeWire's libjack keeps JACK
    /// metadata (`pw-metadata -n default`; `pw-jack jack_property -l` lists the same).
    public func prettyNames() -> [String] {
        guard let result = try? runCommand(["-n", "default"], executable: "/usr/bin/pw-metadata", environment: environment,
                                           timeoutSeconds: 5) else { return [] }
        lastMetadataDump = "pw-metadata exit \(result.status): " + (result.stdout + result.stderr).suffix(600)
        let marker = "key:'http://jackaudio.org/metadata/pretty-name' value:'"
        return result.stdoutLines.compactMap { line in
            guard let start = line.range(of: marker)?.upperBound,
                  let end = line[start...].range(of: "' type:")?.lowerBound else { return nil }
            return String(line[start..<end])
        }
    }
}
