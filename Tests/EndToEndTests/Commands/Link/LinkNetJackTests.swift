import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

/// A round trip through netjack2 on one machine: server A (dummy) is the
/// master with jack2's `netmanager` loaded; server B is a slave,
/// `jackd -d net`, that finds the master at an explicit address
/// (`-a 127.0.0.1`) and runs on A's clock. On A the slave's ports are
/// `slave:to_slave_N` (into the network) and `slave:from_slave_N`; on B
/// `system:capture_N` (from A) is wired to `system:playback_N` (back to A).
///
/// Multicast discovery (the default) cannot work within one network stack:
/// the slave turns IP_MULTICAST_LOOP off on its socket
/// (`JackNetUnixSocket::SetLocalLoop`, called by
/// `JackNetSlaveInterface::SendAvailableToMaster`), so a master on the same
/// host never hears its "available" packets (measured: the slave waits for a
/// master for good). An explicit master address needs neither multicast nor
/// root; multicast works between two network namespaces joined by a veth
/// pair, which the root-only case makes and removes itself.
final class NetJackLoop {
    /// How the slave finds the master: at 127.0.0.1 (`-a`), or by jack2's
    /// default multicast discovery between two network namespaces joined by
    /// a veth pair that the loop makes and removes (root only).
    enum Discovery {
        case explicitAddress, multicastInNamespaces
    }

    let masterName: String
    let slaveName: String
    private var master: PrivateJackServer?
    /// The namespaced master's jackd (if any), then the slave's.
    private var processes: [LiveCommand] = []
    private var namespaces: [String] = []

    init(periodFrames: Int, discovery: Discovery = .explicitAddress) throws {
        let tag = "\(getpid() % 100_000)"
        let port = 19000 + Int(getpid()) % 5000 + Int.random(in: 0..<200) * 2
        slaveName = "tn-netjack-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // Stopped with a long grace: a SIGKILLed jackd keeps its registry slot.
        func jackd(_ arguments: [String], inNamespace namespace: String?) throws -> LiveCommand {
            try LiveCommand((namespace.map { ["netns", "exec", $0, "jackd"] } ?? []) + arguments,
                            executable: namespace == nil ? "/usr/bin/jackd" : "/usr/sbin/ip",
                            environment: ["JACK_NO_AUDIO_RESERVATION": "1"], stopGraceSeconds: 10)
        }
        var slaveArguments = ["-n", slaveName, "-R", "-d", "net", "-p", String(port), "-C", "2", "-P", "2", "-n", "slave"]
        switch discovery {
        case .explicitAddress:
            let server = try startServer(periodFrames: periodFrames, realtime: true)
            master = server
            masterName = server.name
            slaveArguments += ["-a", "127.0.0.1"]
        case .multicastInNamespaces:
            // Addresses only inside the two namespaces; jack2's multicast
            // group (225.3.19.154) routed over the veth pair.
            namespaces = ["tn15-\(tag)-m", "tn15-\(tag)-s"]
            let subnet = "10.213.\(getpid() % 250)"
            var setup = namespaces.map { ["netns", "add", $0] }
            setup.append(["link", "add", "tn15m\(tag)", "type", "veth", "peer", "name", "tn15s\(tag)"])
            for (namespace, (device, host)) in zip(namespaces, [("tn15m\(tag)", 1), ("tn15s\(tag)", 2)]) {
                setup += [["link", "set", device, "netns", namespace],
                          ["-n", namespace, "addr", "add", "\(subnet).\(host)/24", "dev", device],
                          ["-n", namespace, "link", "set", device, "up"],
                          ["-n", namespace, "link", "set", "lo", "up"],
                          ["-n", namespace, "route", "add", "224.0.0.0/4", "dev", device]]
            }
            for arguments in setup {
                let result = try runCommand(arguments, executable: "/usr/sbin/ip")
                #expect(result.status == 0, "ip \(arguments.joined(separator: " ")): \(result.stderr)")
            }
            masterName = "tn-netjack-master-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            processes.append(try jackd(["-n", masterName, "-R", "-d", "dummy", "-r", "48000", "-p", String(periodFrames)],
                                       inNamespace: namespaces[0]))
            try Self.waitForServer(masterName)
        }
        let load = try runCommand(["netmanager", "-i", "-p \(port)"], executable: "/usr/bin/jack_load",
                                  environment: ["JACK_DEFAULT_SERVER": masterName])
        #expect(load.status == 0, "jack_load netmanager: \(load.stdout) \(load.stderr)")
        processes.append(try jackd(slaveArguments, inNamespace: namespaces.last))
        // The master makes the slave's ports once the two have agreed on the session.
        try waitForPort("slave:from_slave_2", server: masterName, timeoutSeconds: 15)
        try waitForPort("system:playback_2", server: slaveName, timeoutSeconds: 10)
        for channel in 1...2 { try jackConnect("system:capture_\(channel)", "system:playback_\(channel)", server: slaveName) }
    }

    deinit {
        // The slave first: a slave whose master went away waits for a new one.
        for process in processes.reversed() { process.stop() }
        master?.stop()
        // Removing a namespace removes the veth end in it, and so the pair.
        for namespace in namespaces { _ = try? runCommand(["netns", "del", namespace], executable: "/usr/sbin/ip") }
    }

    /// Waits (bounded) until a server started outside PrivateJackServer
    /// answers; jack_lsp told not to start one itself.
    private static func waitForServer(_ name: String, timeoutSeconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            let result = try runCommand([], executable: "/usr/bin/jack_lsp",
                                        environment: ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"])
            if result.stdoutLines.contains("system:capture_1") { return }
            usleep(100_000)
        }
        Issue.record("jackd \(name) did not come up in its namespace within \(timeoutSeconds) s")
    }

    /// Root, and `ip` (iproute2), for the namespaces.
    static var canMakeNamespaces: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") }

    /// jack_load and jackd2's netmanager and net backend (in /usr/lib/<arch>/jack).
    static var isInstalled: Bool {
        let libraries = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/jack_load") && libraries.contains { directory in
            ["netmanager.so", "jack_net.so"].allSatisfy { FileManager.default.fileExists(atPath: "/usr/lib/\(directory)/jack/\($0)") }
        }
    }

    var ports: LoopPorts {
        LoopPorts(serverA: masterName, serverB: slaveName, intoBridge: ("slave:to_slave_1", "slave:to_slave_2"),
                  outOfBridge: ("slave:from_slave_1", "slave:from_slave_2"), arrivingOnB: "system:capture_1")
    }
}

extension JackServerTests {
    @Suite("tonenode link across netjack2 (master and slave on one machine)", .enabled(if: NetJackLoop.isInstalled))
    struct LinkNetJackTests {
        @Test("round trip and one way at 64/256/1024 frames; agrees with jack_iodelay on the same loop within 0.01 frame",
              arguments: [64, 256, 1024])
        func roundTrip(periodFrames: Int) throws {
            try measure(NetJackLoop(periodFrames: periodFrames), periodFrames: periodFrames, label: "netjack2, \(periodFrames) frames")
        }

        @Test("multicast discovery between two network namespaces joined by a veth pair (root only)",
              .enabled(if: NetJackLoop.canMakeNamespaces, "needs root and iproute2 to make network namespaces"))
        func multicastInNamespaces() throws {
            try measure(NetJackLoop(periodFrames: 256, discovery: .multicastInNamespaces), periodFrames: 256,
                        label: "netjack2 by multicast between namespaces, 256 frames")
        }

        private func measure(_ loop: NetJackLoop, periodFrames: Int, label: String) throws {
            // The slave runs on the master's clock: no drift at all, where
            // nothing broke the one-way stretch before the probe's end (its
            // last dropout, the round-trip meter stopping first; at
            // 64 frames a lost cycle on this busy machine once moved the
            // one-way delay, read as 57 ± 28 ppm). A broken stretch is an
            // unfair run, not a pass: measured again, twice at most (only then: no
            // time added to a clean run), and if those break too it is said and
            // counted as a known issue (the run's last line counts them): at
            // 64 frames without real-time scheduling a lost cycle is the
            // machine's, not the bridge's or the analyzer's.
            func breaks(_ measurement: LoopMeasurement) -> [[String: Any]] {
                Array((measurement.oneWay["dropout_list"] as? [[String: Any]] ?? []).dropLast())
            }
            var measurement = try measureLoop(loop.ports, label: label)
            for _ in 1..<3 where !breaks(measurement).isEmpty {
                report("\(label): the one-way stretch broke (\(breaks(measurement))); measuring again")
                measurement = try measureLoop(loop.ports, label: label)
            }
            measurement.reportRoundTrip(label)
            measurement.reportOneWay(label)
            try expectWholePeriodLoop(measurement, periodFrames: periodFrames, label: label)
            let drift = measurement.oneWay["drift_ppm"] as? Double ?? .nan
            let glitches = breaks(measurement)
            if glitches.isEmpty {
                #expect(abs(drift) < 0.01, "\(label): drift \(drift) ppm between a master and its slave")
            } else {
                withKnownIssue("the machine could not give a fair run", isIntermittent: true) {
                    Issue.record("""
                        \(label): the machine could not give a fair run: the one-way stretch broke in all three \
                        measurements (the last: \(glitches)), so the drift (\(drift) ppm) could not be judged
                        """)
                }
            }
        }
    }
}
