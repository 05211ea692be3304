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
/// Multicast discovery (the default) cannot work on one machine: the slave
/// turns IP_MULTICAST_LOOP off on its socket (`JackNetUnixSocket::SetLocalLoop`,
/// called by `JackNetSlaveInterface::SendAvailableToMaster`), so a master on
/// the same host never hears its "available" packets (measured: the slave
/// waits for a master for good). An explicit master address needs neither
/// multicast nor a network namespace, so nothing here needs root.
final class NetJackLoop {
    let a: PrivateJackServer
    let slaveName: String
    private let slave: LiveCommand

    init(periodFrames: Int) throws {
        a = try startServer(periodFrames: periodFrames, realtime: true)
        let port = 19000 + Int(getpid()) % 5000 + Int.random(in: 0..<200) * 2
        let load = try runCommand(["netmanager", "-i", "-p \(port)"], executable: "/usr/bin/jack_load",
                                  environment: ["JACK_DEFAULT_SERVER": a.name])
        #expect(load.status == 0, "jack_load netmanager: \(load.stdout) \(load.stderr)")
        slaveName = "tn-netjack-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // Stopped with a long grace: a SIGKILLed jackd keeps its registry slot.
        slave = try LiveCommand(["-n", slaveName, "-R", "-d", "net", "-a", "127.0.0.1", "-p", String(port),
                                 "-C", "2", "-P", "2", "-n", "slave"], executable: "/usr/bin/jackd",
                                environment: ["JACK_NO_AUDIO_RESERVATION": "1"], stopGraceSeconds: 10)
        // The master makes the slave's ports once the two have agreed on the session.
        try waitForPort("slave:from_slave_2", server: a.name, timeoutSeconds: 15)
        try waitForPort("system:playback_2", server: slaveName, timeoutSeconds: 10)
        for channel in 1...2 { try jackConnect("system:capture_\(channel)", "system:playback_\(channel)", server: slaveName) }
    }

    deinit {
        // The slave first: a slave whose master went away waits for a new one.
        slave.stop()
        a.stop()
    }

    /// jack_load and jackd2's netmanager and net backend (in /usr/lib/<arch>/jack).
    static var isInstalled: Bool {
        let libraries = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/jack_load") && libraries.contains { directory in
            ["netmanager.so", "jack_net.so"].allSatisfy { FileManager.default.fileExists(atPath: "/usr/lib/\(directory)/jack/\($0)") }
        }
    }

    var ports: LoopPorts {
        LoopPorts(serverA: a.name, serverB: slaveName, intoBridge: ("slave:to_slave_1", "slave:to_slave_2"),
                  outOfBridge: ("slave:from_slave_1", "slave:from_slave_2"), arrivingOnB: "system:capture_1")
    }
}

extension JackServerTests {
    @Suite("tonenode link across netjack2 (master and slave on 127.0.0.1)", .enabled(if: NetJackLoop.isInstalled))
    struct LinkNetJackTests {
        @Test("round trip and one way at 64/256/1024 frames; agrees with jack_iodelay on the same loop within 0.01 frame",
              arguments: [64, 256, 1024])
        func roundTrip(periodFrames: Int) throws {
            let loop = try NetJackLoop(periodFrames: periodFrames)
            let label = "netjack2, \(periodFrames) frames"
            let measurement = try measureLoop(loop.ports, label: label)
            measurement.reportRoundTrip(label)
            measurement.reportOneWay(label)
            try expectWholePeriodLoop(measurement, periodFrames: periodFrames, label: label)
            // The slave runs on the master's clock: no drift at all.
            let drift = measurement.oneWay["drift_ppm"] as? Double ?? .nan
            #expect(abs(drift) < 0.01, "\(label): drift \(drift) ppm between a master and its slave")
        }
    }
}
