import EndToEndSupport
import Foundation
import Testing
import ToneJack
import ToneTestSupport

/// A round trip between two private servers through JackTrip on 127.0.0.1,
/// two channels (link, jack_iodelay). Hub: A runs the hub server without
/// auto-patching (`-S -p 5`), B a hub client (`-C`), whose ports on A are
/// named after it (`-K far`). P2P: A `-s`, B `-c`. On B what arrives is
/// wired back into JackTrip. Every process stopped by PID.
///
/// `-b 24`: JackTrip 1.7.0's 32-bit mode (`-b 32`) sends garbage. Its
/// `AudioInterface::fromSampleToBitConversion` copies the first 4 bytes of a
/// `double` (the low half of its mantissa) for each float sample, and the
/// far end plays those bytes as floats (jacktrip/jacktrip issue 1469, still
/// open: "bitres 32 results in buzzing only", silence for the maintainer).
final class JackTripLoop {
    enum Mode: String, CustomTestStringConvertible, Sendable {
        case hub, p2p
        var testDescription: String { rawValue }
    }

    let a: PrivateJackServer
    let b: PrivateJackServer
    /// On A: into JackTrip and back out of it, per channel.
    let sendOnA: [String]
    let receiveOnA: [String]
    private var processes: [LiveCommand] = []

    /// - Parameter bits: JackTrip's sample resolution on the wire (`-b`): 16 or 24.
    init(mode: Mode, periodFrames: Int, bits: Int = 24) throws {
        a = try startServer(periodFrames: periodFrames, realtime: true)
        b = try startServer(periodFrames: periodFrames, realtime: true)
        let base = UInt16(30000 + Int(getpid()) % 10000 + Int.random(in: 0..<100) * 16)
        let common = ["-n", "2", "-b", String(bits), "-D"]
        let farName = mode == .hub ? "far" : "jtA"
        sendOnA = (1...2).map { "\(farName):send_\($0)" }
        receiveOnA = (1...2).map { "\(farName):receive_\($0)" }
        switch mode {
        case .hub:
            try start(["-S", "-p", "5", "-B", String(base), "-U", String(base + 2)] + common, on: a, wait: nil)
            try start(["-C", "127.0.0.1", "-P", String(base), "-B", String(base + 1), "-J", "jtB", "-K", farName] + common,
                      on: b, wait: "jtB:receive_1")
        case .p2p:
            try start(["-s", "-B", String(base), "-P", String(base + 1), "-J", farName] + common, on: a, wait: "jtA:send_1")
            try start(["-c", "127.0.0.1", "-B", String(base + 1), "-P", String(base), "-J", "jtB"] + common,
                      on: b, wait: "jtB:receive_1")
        }
        // The hub makes the far client's ports once the client has connected.
        try waitForPort(receiveOnA[1], server: a.name, timeoutSeconds: 15)
        for channel in 1...2 { try jackConnect("jtB:receive_\(channel)", "jtB:send_\(channel)", server: b.name) }
    }

    /// One client at a time: two libjack clients opening on two servers at
    /// the same moment sometimes fail ("Cannot open … client").
    private func start(_ arguments: [String], on server: PrivateJackServer, wait port: String?) throws {
        processes.append(try LiveCommand.jackTool("/usr/bin/jacktrip", arguments, server: server.name))
        if let port { try waitForPort(port, server: server.name, timeoutSeconds: 10) } else { usleep(500_000) }
    }

    deinit {
        for process in processes.reversed() { process.stop() }
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/jacktrip") }

    var ports: LoopPorts {
        LoopPorts(serverA: a.name, serverB: b.name, intoBridge: (sendOnA[0], sendOnA[1]),
                  outOfBridge: (receiveOnA[0], receiveOnA[1]), arrivingOnB: "jtB:receive_1")
    }
}

extension JackServerTests {
    @Suite("tonenode link across JackTrip (UDP on 127.0.0.1)", .enabled(if: JackTripLoop.isInstalled))
    struct LinkJackTripTests {
        @Test("round trip and one way, hub and P2P; agrees with jack_iodelay on the same loop within 0.01 frame",
              arguments: [(JackTripLoop.Mode.hub, 64), (.hub, 256), (.hub, 1024), (.p2p, 256)])
        func roundTrip(mode: JackTripLoop.Mode, periodFrames: Int) throws {
            let loop = try JackTripLoop(mode: mode, periodFrames: periodFrames)
            let label = "JackTrip \(mode.rawValue), \(periodFrames) frames"
            let measurement = try measureLoop(loop.ports, label: label)
            measurement.reportRoundTrip(label)
            measurement.reportOneWay(label)
            try expectWholePeriodLoop(measurement, periodFrames: periodFrames, label: label)
        }
    }
}

/// A bridge without a resampler (JackTrip, netjack2) passes whole periods:
/// its round trip is a whole number of periods, and it changes only in
/// steps of periods (JackTrip's jitter buffer does at 64 frames). Where the
/// loop stands still (a reading equal to both its neighbours within 0.01
/// frame), link's reading agrees with one of jack_iodelay's figures on the
/// second channel within 0.01 frame; most readings carry the probe at its
/// level. The clock drift on B must be a finite figure.
func expectWholePeriodLoop(_ measurement: LoopMeasurement, periodFrames: Int, label: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let latencies = measurement.latencies
    #expect(measurement.readingCount >= 20 && latencies.count * 2 >= measurement.readingCount,
            "\(label): readings \(measurement.readingCount), with the probe \(latencies.count)", sourceLocation: sourceLocation)
    let still = latencies.indices.dropFirst().dropLast().filter {
        abs(latencies[$0] - latencies[$0 - 1]) < 0.01 && abs(latencies[$0] - latencies[$0 + 1]) < 0.01
    }.map { latencies[$0] }
    #expect(still.count >= 5, "\(label): the loop never stood still: \(latencies)", sourceLocation: sourceLocation)
    for latency in Set(still.map { ($0 * 1000).rounded() / 1000 }).sorted() {
        let periods = latency / Double(periodFrames)
        #expect(periods >= 1 && abs(periods - periods.rounded()) * Double(periodFrames) < 0.01,
                "\(label): \(latency) frames is not a whole number of \(periodFrames)-frame periods", sourceLocation: sourceLocation)
        let nearest = measurement.iodelayLatencies.min { abs($0 - latency) < abs($1 - latency) }
        #expect(nearest.map { abs($0 - latency) < 0.01 } == true,
                "\(label): link \(latency) frames; jack_iodelay \(measurement.iodelayLatencies)", sourceLocation: sourceLocation)
    }
    #expect(abs((median(measurement.levelsDBFS) ?? 0) + 24.69) < 0.5, "\(label): \(measurement.levelsDBFS)",
            sourceLocation: sourceLocation)
    let drift = try #require(measurement.oneWay["drift_ppm"] as? Double, "\(label): no drift in \(measurement.oneWay)",
                             sourceLocation: sourceLocation)
    #expect(drift.isFinite && abs(drift) < 5000, sourceLocation: sourceLocation)
}
