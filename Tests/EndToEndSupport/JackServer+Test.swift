import Foundation
import Testing
import ToneJack

/// A private `jackd` (dummy backend) for one test, stopped by PID when released.
///
/// With no jackd of this user running, a metadata store left in /dev/shm is
/// a killed server's (one that ends in order removes it): it goes first.
/// A jackd that ends while starting with a store in place is the store's
/// fault (see `JackMetadataStore`): the store is removed, the fault recorded
/// (`EnvironmentFaults`) and the server started once more; a second ending
/// is thrown, saying how jackd ended.
public func startServer(periodFrames: Int = 256, sampleRateHz: Int = 48000,
                        name: String = "tn-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                        driverArguments: [String] = [], realtime: Bool = false) throws -> PrivateJackServer {
    let start = {
        try PrivateJackServer(name: name, sampleRateHz: sampleRateHz, periodFrames: periodFrames,
                              logFile: serverLogPath(name), driverArguments: driverArguments,
                              realtime: realtime)
    }
    let store = JackMetadataStore.own
    if store.exists && !store.anyServerRunning {
        store.remove()
    }
    do {
        return try start()
    } catch let error as PrivateJackServerError {
        guard case .endedAtStartUp = error, store.exists else { throw error }
        EnvironmentFaults.record("\(error); JACK's metadata store \(store.path) was in place: removed")
        store.remove()
        return try start()
    }
}

/// Where `startServer` has jackd write its log.
public func serverLogPath(_ serverName: String) -> String { NSTemporaryDirectory() + "\(serverName).log" }

// jackd2's example tools are given the server in $JACK_DEFAULT_SERVER, never
// with `-s` (see `LiveCommand.jackTool`).

/// Waits (bounded) until a port exists on the server (or, `toExist: false`, is
/// gone); a recorded failure (at the caller) when it does not.
public func waitForPort(_ port: String, server: String, toExist: Bool = true, timeoutSeconds: Double = 5,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    var last = ""
    var hung = 0
    while Date() < deadline {
        // A jack_lsp that opens while another client is being opened or
        // activated can wait seconds for the server (a fresh-clone CI run,
        // 2026-11-26, saw one hang 5 s while zita-njbridge started): such a
        // run is stopped and the next one tried, until the deadline.
        let lsp = try runCommand([], executable: "/usr/bin/jack_lsp", environment: ["JACK_DEFAULT_SERVER": server],
                                 timeoutSeconds: max(0.5, min(3, deadline.timeIntervalSinceNow)), recordsTimeout: false)
        guard lsp.finished else {
            hung += 1
            continue
        }
        if lsp.stdoutLines.contains(port) == toExist { return }
        last = "status \(lsp.status), \(lsp.stdout) \(lsp.stderr)"
        usleep(50_000)
    }
    let why = "port \(port) did not \(toExist ? "appear on" : "vanish from") \(server) within \(timeoutSeconds) s "
        + "(\(hung) jack_lsp run(s) stopped after hanging); last jack_lsp: \(last)"
    Issue.record(Comment(rawValue: why), sourceLocation: sourceLocation)
}

/// Every port on the server and the ports it is connected to (`jack_lsp -c`).
public func connectionsOnServer(_ server: String) throws -> [String: Set<String>] {
    var connections: [String: Set<String>] = [:]
    var current = ""
    for line in try runCommand(["-c"], executable: "/usr/bin/jack_lsp",
                               environment: ["JACK_DEFAULT_SERVER": server]).stdoutLines {
        if line.hasPrefix("   ") {
            connections[current, default: []].insert(String(line.dropFirst(3)))
        } else {
            current = line
            connections[current, default: []] = connections[current] ?? []
        }
    }
    return connections
}

/// A JACK server, its clients and `jack_property` run under a uid of their
/// own (`setpriv`), for tests that read JACK metadata. jack2 keeps metadata
/// in one store per uid (`/dev/shm/jack_db-UID`) shared by every server of
/// that user, and numbers client and port UUIDs per server the same way on
/// every fresh server: under root, another test's node on another server
/// sets names on the very subjects this test's node has. The uid is unique
/// to this test process and `slot`; `stop` ends the server and removes what
/// that uid left in /dev/shm. Test thread only.
public final class OwnUserJack {
    public let uid: UInt32
    public let serverName: String
    private var server: LiveCommand?

    /// Starts jackd (dummy backend, 48 kHz, 256 frames) under the uid and
    /// waits (bounded) until `jack_lsp` answers.
    public init(slot: UInt32) throws {
        uid = 300_000 + UInt32(getpid() % 100_000) * 8 + slot % 8
        serverName = "tn-own-\(getpid())-\(slot)"
        removeLeftovers()
        server = try LiveCommand(wrap("/usr/bin/jackd", ["-n", serverName, "--no-realtime", "-d", "dummy",
                                                         "-r", "48000", "-p", "256"]),
                                 executable: "/usr/bin/setpriv", environment: environment)
        for _ in 0..<100 {
            if try run("/usr/bin/jack_lsp", [], timeoutSeconds: 5).status == 0 { return }
            usleep(100_000)
        }
        Issue.record("jackd under uid \(uid) did not answer; \(server?.stderr ?? "")")
    }

    deinit { stop() }

    /// The environment of every process under the uid.
    private var environment: [String: String] {
        ["JACK_DEFAULT_SERVER": serverName, "JACK_NO_AUDIO_RESERVATION": "1", "HOME": "/tmp"]
    }

    /// `setpriv`'s arguments that run `path` with `arguments` under the uid.
    private func wrap(_ path: String, _ arguments: [String]) -> [String] {
        ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", path] + arguments
    }

    /// Starts the built `tonenode` with `arguments` under the uid (give it `-s serverName`).
    public func tonenode(_ arguments: [String]) throws -> LiveCommand {
        try LiveCommand(wrap(productsDirectory.appendingPathComponent("tonenode").path, arguments),
                        executable: "/usr/bin/setpriv", environment: environment)
    }

    /// Runs a JACK tool (absolute path) to completion under the uid, on this server.
    public func run(_ path: String, _ arguments: [String], timeoutSeconds: Double = 10,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        try runCommand(wrap(path, arguments), executable: "/usr/bin/setpriv", environment: environment,
                       timeoutSeconds: timeoutSeconds, sourceLocation: sourceLocation)
    }

    /// Waits (bounded) until a port exists (or, `toExist: false`, is gone).
    public func waitForPort(_ port: String, toExist: Bool = true, timeoutSeconds: Double = 5,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            let result = try run("/usr/bin/jack_lsp", [], sourceLocation: sourceLocation)
            if result.stdoutLines.contains(port) == toExist { return }
            usleep(50_000)
        }
        Issue.record("port \(port) did not \(toExist ? "appear" : "vanish") under uid \(uid)", sourceLocation: sourceLocation)
    }

    /// Every pretty name in the uid's metadata store (`jack_property -l`).
    public func prettyNames(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let listing = try run("/usr/bin/jack_property", ["-l"], sourceLocation: sourceLocation)
        return listing.stdoutLines.compactMap { line in
            guard line.contains("metadata/pretty-name"), let range = line.range(of: "value: ") else { return nil }
            let rest = line[range.upperBound...]
            return String(rest.components(separatedBy: " type:").first ?? String(rest))
        }
    }

    /// The processes of the uid running tonenode's metadata helper (the hidden subcommand on their command line).
    public func metadataHelperPIDs() -> [Int32] {
        processIDs(commandLineContaining: "__jack-metadata-helper", user: uid)
    }

    /// Stops the server (SIGTERM, then SIGKILL) and removes the uid's files in /dev/shm.
    public func stop() {
        guard let server else { return }
        server.stop()
        self.server = nil
        removeLeftovers()
    }

    /// The uid's files in /dev/shm (its store, sockets, semaphores).
    private func removeLeftovers() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        for entry in entries {
            let path = "/dev/shm/\(entry)"
            let owner = (try? FileManager.default.attributesOfItem(atPath: path))?[.ownerAccountID] as? NSNumber
            if owner?.uint32Value == uid { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}

extension PrivateJackServer {
    /// Lets a SIGSTOPped server run again and gives it 0.2 s to take out the
    /// clients that died while it was stopped; nothing when it is not stopped.
    /// A jackd without real-time scheduling told to stop at once instead
    /// waits 5 s and then 1 s for each such client (ten and two times its
    /// 500 ms client time-out) to leave a graph whose driver has already
    /// stopped: 6 s of a test's stop (measured: 6.04 s at once, 0.15 s after
    /// 0.1 s).
    public func resume() {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards),
              stat[afterName.upperBound...].first == "T" else { return }
        kill(pid, SIGCONT)
        usleep(200_000)
    }
}

/// The processes whose command line (arguments joined by spaces) contains
/// `text`; of `user` only, when given.
public func processIDs(commandLineContaining text: String, user: UInt32? = nil) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
        guard let pid = Int32(entry), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
              String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(text) else { return nil }
        if let user {
            let owner = (try? FileManager.default.attributesOfItem(atPath: "/proc/\(entry)"))?[.ownerAccountID] as? NSNumber
            guard owner?.uint32Value == user else { return nil }
        }
        return pid
    }
}
