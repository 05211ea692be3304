import EndToEndSupport
import Foundation
import Testing

/// Every kind of command running when the server is killed (SIGKILL) and
/// started again, and what each must then do: the same on jackd2
/// (`ServerLossTests`) and PipeWire (`PipeWireTests.restartUnderEveryCommand`).
///
/// - `run`, `receive`, `link` say `the JACK server shut the client down;
///   waiting for it to come back` and reopen;
/// - `run --no-reconnect`, `measure` and `send` exit 1 with one line;
/// - `run --duration` ends by the wall clock, though its audio stopped.
struct ServerLossCommands {
    /// The line every command says when the server goes (`ServerNotice.goneLine`).
    static let goneLine = "the JACK server shut the client down"
    static let waitingLine = "tonenode: the JACK server shut the client down; waiting for it to come back"
    /// `run --duration`'s N; the wall clock ends it a second later when its audio stopped.
    static let durationSeconds = 8.0

    let timed: LiveCommand
    let timedStarted: Date
    let mortal: LiveCommand
    let receiver: LiveCommand
    let meter: LiveCommand
    let measure: LiveCommand
    let sender: LiveCommand
    var all: [LiveCommand] { [timed, mortal, receiver, meter, measure, sender] }

    /// Starts them through `start` (the server's launcher: `pw-jack`, or `-s NAME`) and
    /// returns once each is in its steady state (the node reading, `measure` recording, `send` playing).
    /// - Parameter linkPorts: what `link` is wired to: its own loop on jackd2; on PipeWire
    ///   (no self-loop) any output: the sessions matter here, not what it reads.
    init(start: ([String]) throws -> LiveCommand, linkPorts: [String]) throws {
        timedStarted = Date()
        timed = try start(["run", "-n", "timed", "--mute", "--hop", "4096", "--json",
                           "--duration", String(Self.durationSeconds)])
        mortal = try start(["run", "-n", "mortal", "--mute", "--hop", "4096", "--json", "--no-reconnect"])
        receiver = try start(["receive", "-n", "rx"])
        meter = try start(["link", "-n", "meter", "--json"] + linkPorts)
        measure = try start(["measure", "-n", "ms", "--loopback", "--sweep-seconds", "20"])
        #expect(receiver.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("listening on rx:in") }, "\(receiver.stderr)")
        // About 15 s of ultrasonic tones (~42 bytes/s).
        sender = try start(["send", "-n", "tx", "--connect-out", "rx:in", String(repeating: "x", count: 600)])
        #expect(measure.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("measuring…") }, "\(measure.stderr)")
        #expect(meter.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("measuring the round trip") }, "\(meter.stderr)")
        for node in [timed, mortal] {
            #expect(node.waitUntil(timeoutSeconds: 10) { !$0.reports.isEmpty }, "\(node.stderr)")
        }
        // The sweep is recorded; the message is on its way.
        usleep(1_000_000)
    }

    func stop() { all.forEach { $0.stop() } }

    /// What each must have done once the server is back (`restarted`: when it answered again).
    func expectOutcomes(sourceLocation: SourceLocation = #_sourceLocation) {
        for (command, says) in [(mortal, "tonenode: error: \(Self.goneLine)\n"),
                                (measure, "tonenode: error: \(Self.goneLine) during the measurement\n"),
                                (sender, "tonenode: error: \(Self.goneLine)\n")] {
            let exit = command.exitStatus(timeoutSeconds: 10)
            #expect(exit?.status == 1, "\(command.stderr)", sourceLocation: sourceLocation)
            #expect(command.stderr.contains(says), "\(command.stderr)", sourceLocation: sourceLocation)
            // One line: nothing else says the server went.
            let lines = command.stderr.split(separator: "\n").filter { $0.contains("JACK server") }
            #expect(lines.count == 1, "\(command.stderr)", sourceLocation: sourceLocation)
        }
        for command in [timed, receiver] {
            #expect(command.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("tonenode: reconnected: client") },
                    "\(command.stderr)", sourceLocation: sourceLocation)
            #expect(command.stderr.contains(Self.waitingLine), "\(command.stderr)", sourceLocation: sourceLocation)
        }
        // link opens a second session: its opening line again.
        #expect(meter.waitUntil(timeoutSeconds: 10) {
            $0.stderr.components(separatedBy: "client 'meter'").count == 3
        }, "\(meter.stderr)", sourceLocation: sourceLocation)
        #expect(meter.stderr.contains(Self.waitingLine), "\(meter.stderr)", sourceLocation: sourceLocation)

        // --duration: the audio lost to the outage does not hold it; the wall clock ends it.
        let exit = timed.exitStatus(timeoutSeconds: Self.durationSeconds + 5)
        let seconds = Date().timeIntervalSince(timedStarted)
        #expect(exit?.status == 0, "\(timed.stderr)", sourceLocation: sourceLocation)
        #expect(seconds < Self.durationSeconds + 3, "ended \(seconds) s after its start", sourceLocation: sourceLocation)
        let lastTime = timed.reports.compactMap { $0["time_s"] as? Double }.max() ?? 0
        #expect(lastTime < Self.durationSeconds, "audio time \(lastTime) s: not the wall clock's end",
                sourceLocation: sourceLocation)
        for command in [receiver, meter] {
            command.signal(SIGTERM)
            #expect(command.exitStatus(timeoutSeconds: 5) != nil, "\(command.stderr)", sourceLocation: sourceLocation)
        }
        // link's summary spans both sessions.
        let summary = meter.reports.last { $0["summary"] as? Bool == true }
        #expect(summary?["sessions"] as? Int == 2, "\(meter.stdout.suffix(400))", sourceLocation: sourceLocation)
    }
}
