import Foundation

/// A `jackd` with the dummy backend under a private name, started and stopped
/// by PID. `tonenode demo` uses one when no server is running, and every
/// integration test runs against its own.
public final class PrivateJackServer: @unchecked Sendable {
    // @unchecked Sendable: `process` is only started in init and stopped in `stop`.
    public let name: String
    public let sampleRateHz: Int
    public let periodFrames: Int
    private let process: Process
    public var pid: Int32 { process.processIdentifier }

    /// Starts `jackd -n NAME --no-realtime -d dummy -r RATE -p PERIOD` and
    /// waits until a client can connect. `realtime`: `-R` instead of
    /// `--no-realtime` (where the system allows it), for tests whose dummy
    /// clock must keep time well, such as two servers bridged by a resampler.
    public init(name: String = "tonenode-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                sampleRateHz: Int = 48000, periodFrames: Int = 256, timeoutSeconds: Double = 10,
                logFile: String? = nil, driverArguments: [String] = [], realtime: Bool = false) throws(PrivateJackServerError) {
        guard let jackd = Self.findExecutable("jackd") else {
            throw .notInstalled
        }
        JackRegistry.reclaimDeadServerSlots()
        self.name = name
        self.sampleRateHz = sampleRateHz
        self.periodFrames = periodFrames
        process = Process()
        process.executableURL = URL(fileURLWithPath: jackd)
        process.arguments = ["-n", name, realtime ? "-R" : "--no-realtime", "-d", "dummy",
                             "-r", String(sampleRateHz), "-p", String(periodFrames)] + driverArguments
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_NO_AUDIO_RESERVATION"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        if let logFile, FileManager.default.createFile(atPath: logFile, contents: nil),
           let log = FileHandle(forWritingAtPath: logFile) {
            process.standardOutput = log
            process.standardError = log
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        do { try process.runWithSignalsUnblocked() } catch {
            throw .cannotLaunch(reason: error.localizedDescription)
        }
        // First its socket (a plain `connect`, no libjack), then a probe
        // client: every libjack open that fails while the server comes up
        // cancels a notification thread, which can wedge libjack in this
        // process (see `JackClient.serverIsReachable`). A jackd that is not
        // jack2 (jack1 keeps its sockets elsewhere) is probed directly once
        // no jack2 socket has appeared for `socketGraceSeconds`.
        let started = Date()
        let deadline = started.addingTimeInterval(timeoutSeconds)
        while true {
            let listening = JackServerSocket.isListening(serverName: name)
                || Date().timeIntervalSince(started) > Self.socketGraceSeconds
            if listening && JackClient.serverIsReachable(serverName: name) { break }
            guard process.isRunning, Date() < deadline else {
                let ended = !process.isRunning
                stop()
                let log = logFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
                if log.contains("Too many servers") {
                    throw .refusedTooManyServers(name: name)
                }
                if ended {
                    throw .endedAtStartUp(name: name, how: process.howItEnded, lastLine: Self.lastLine(ofLog: log))
                }
                throw .didNotComeUp(name: name, seconds: timeoutSeconds)
            }
            usleep(listening ? 50_000 : 10_000)
        }
    }

    /// How long a started jackd may take to listen on jack2's socket before
    /// it is probed with libjack anyway (jack2 answered within 3.4 s in 480
    /// starts on a loaded 2-core machine).
    static let socketGraceSeconds = 5.0

    deinit { stop() }

    /// SIGTERM by PID, then SIGKILL if it has not exited within 10 s (a
    /// SIGKILLed jackd leaves its slot in JACK's registry taken for good).
    public func stop() { process.terminateByPID(graceSeconds: 10) }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + ["/usr/bin/\(name)", "/usr/local/bin/\(name)"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension Process {
    /// Stops a child by PID: SIGTERM, then SIGKILL if it is still running
    /// after `graceSeconds`; returns once it has exited. Safe to call twice.
    public func terminateByPID(graceSeconds: Double) {
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(graceSeconds)
        while isRunning && Date() < deadline { usleep(20_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
