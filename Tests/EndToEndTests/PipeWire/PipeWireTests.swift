import EndToEndSupport
import Foundation
import Testing

/// The valid readings (`"invalid": false`, a frequency) of a node's `--json` reports.
private func validFrequencies(_ command: LiveCommand) -> [Double] {
    command.reports.compactMap { report in
        (report["invalid"] as? Bool) == false ? report["freq_hz"] as? Double : nil
    }
}

/// A node playing 997 Hz at −18 dBFS as client `player`, once `player:out` is in the graph.
private func startPlayer(on pipeWire: PrivatePipeWire) throws -> LiveCommand {
    let player = try pipeWire.live(["run", "--name", "player", "--freq", "997", "--level", "-18", "--json"])
    #expect(pipeWire.waitForPort("player:out"), "\(player.stderr)")
    return player
}

/// A node as client `listener` reading `player:out` (its own tone muted), with `--json` and `extra` arguments.
private func startListener(on pipeWire: PrivatePipeWire, _ extra: [String] = []) throws -> LiveCommand {
    try pipeWire.live(["run", "--name", "listener", "--connect-in", "player:out", "--mute", "--json"] + extra)
}

/// A private PipeWire with a player and a listener (`startPlayer`, `startListener`), once the listener has read the tone.
private struct PlayingPair {
    let pipeWire: PrivatePipeWire
    let player: LiveCommand
    let listener: LiveCommand

    init() throws {
        pipeWire = try PrivatePipeWire()
        do {
            player = try startPlayer(on: pipeWire)
            listener = try startListener(on: pipeWire)
        } catch {
            pipeWire.stop()
            throw error
        }
        #expect(listener.waitUntil(timeoutSeconds: 10) { !validFrequencies($0).isEmpty }, "\(listener.stderr)")
    }

    func stop() {
        listener.stop()
        player.stop()
        pipeWire.stop()
    }
}

/// Waits (bounded) until `listener` reads 997 Hz to within 1 mHz `count` times in reports from now on.
private func reads997Again(_ listener: LiveCommand, count: Int = 1) -> Bool {
    let before = listener.lineCount
    return listener.waitUntil(timeoutSeconds: 10) {
        $0.lines(from: before).compactMap(parseReport).filter { abs(($0["freq_hz"] as? Double ?? 0) - 997) < 0.001 }.count >= count
    }
}

extension JackServerTests {
    /// The commands under PipeWire's JACK (`pw-jack`), against a headless
    /// PipeWire each test starts itself (`PrivatePipeWire`). Serialized with
    /// the other JACK suites: every client here is a process of its own, but
    /// PipeWire's graph shares the two cores with theirs.
    @Suite("Under PipeWire's JACK")
    struct PipeWireTests {
        @Test("demo identifies all its tones (its loop runs through a second client)")
        func demo() throws {
            let pipeWire = try PrivatePipeWire()
            defer { pipeWire.stop() }
            let result = try pipeWire.run(["demo"], timeoutSeconds: 60)
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect((result.stdout + result.stderr).contains("all 5 tones identified"), "\(result.stdout)\n\(result.stderr)")
        }

        @Test("run --loopback reads its own tone; measure --loopback reads one quantum")
        func loopback() throws {
            let pipeWire = try PrivatePipeWire()
            defer { pipeWire.stop() }
            let run = try pipeWire.live(["run", "--loopback", "--freq", "1234.5", "--level", "-18", "--json", "--duration", "1.5"])
            let exit = run.exitStatus(timeoutSeconds: 20)
            #expect(exit?.status == 0, "\(run.stderr)")
            let readings = validFrequencies(run)
            #expect(readings.count >= 20, "\(run.stdout)\n\(run.stderr)")
            for frequency in readings { #expect(abs(frequency - 1234.5) < 0.001) }
            #expect(!pipeWire.jackPorts().contains { $0.hasPrefix("tonenode-loop:") }, "the relay closes with the node")

            let measure = try pipeWire.run(["measure", "--loopback", "--json"], timeoutSeconds: 30)
            #expect(measure.status == 0, "\(measure.stderr)")
            let summary = try #require(measure.stdoutLines.compactMap(parseReport).last, "\(measure.stdout)\n\(measure.stderr)")
            let period = try #require(summary["period_frames"] as? Int)
            let latency = try #require(summary["latency_frames"] as? Double)
            #expect(abs(latency - Double(period)) < 0.01, "latency \(latency) frames at \(period) frames/period")
        }

        @Test("two nodes: one plays 997 Hz into the other, which reads it")
        func twoNodes() throws {
            let pipeWire = try PrivatePipeWire()
            defer { pipeWire.stop() }
            let player = try startPlayer(on: pipeWire)
            defer { player.stop() }
            let listener = try startListener(on: pipeWire, ["--duration", "1.5"])
            #expect(listener.exitStatus(timeoutSeconds: 20)?.status == 0, "\(listener.stderr)")
            let readings = validFrequencies(listener)
            #expect(readings.count >= 20, "\(listener.stdout)\n\(listener.stderr)")
            for frequency in readings { #expect(abs(frequency - 997) < 0.001) }
        }

        @Test("PipeWire killed and started again under two nodes and every other command: each says so in one line; run, receive and link reconnect (the listener reads 997 Hz again); run --no-reconnect, measure and send exit 1; run --duration ends on the wall clock")
        func restart() throws {
            let pair = try PlayingPair()
            defer { pair.stop() }
            let (pipeWire, player, listener) = (pair.pipeWire, pair.player, pair.listener)
            // No self-loop on PipeWire: link reads the player (no probe comes back; its sessions matter here).
            let commands = try ServerLossCommands(start: { try pipeWire.live($0) }, linkPorts: ["--connect-in", "player:out"])
            defer { commands.stop() }
            // Killed (SIGKILL) and started again a second later: PipeWire's libjack tells its clients nothing.
            try pipeWire.restart()
            for node in [player, listener] {
                #expect(node.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("tonenode: reconnected: client") },
                        "\(node.stderr)")
                #expect(node.stderr.contains(ServerLossCommands.waitingLine))
            }
            // The connection comes back from either end (each restores what it had).
            #expect(reads997Again(listener), "\(listener.stderr)")
            commands.expectOutcomes()
            listener.signal(SIGTERM)
            #expect(listener.exitStatus(timeoutSeconds: 5)?.status == 0, "\(listener.stderr)")
        }

        @Test("the sample rate forced to 44100 Hz: run says so (a line, a JSON event), reopens at it and reads 997 Hz again; measure measures again at it")
        func sampleRateChange() throws {
            let pair = try PlayingPair()
            defer { pair.stop() }
            let (pipeWire, player, listener) = (pair.pipeWire, pair.player, pair.listener)
            let measure = try pipeWire.live(["measure", "-n", "ms", "--loopback", "--json"])
            defer { measure.stop() }
            #expect(measure.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("measuring…") }, "\(measure.stderr)")
            usleep(1_000_000)
            try pipeWire.forceRate(44100)
            for node in [player, listener] {
                #expect(node.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("reconnected: client") && $0.stderr.contains("at 44100 Hz") },
                        "\(node.stderr)")
                #expect(node.stderr.contains("tonenode: sample rate changed from 48000 to 44100 Hz; reopening the client at the new rate"))
                let events = node.reports.filter { $0["event"] as? String == "sample_rate_changed" }
                #expect(events.count == 1 && events.first?["sample_rate_hz"] as? Int == 44100, "\(events)")
            }
            // Both at the new rate: 997 Hz again, exactly.
            #expect(reads997Again(listener, count: 5), "\(listener.stderr)")
            #expect(measure.exitStatus(timeoutSeconds: 30)?.status == 0, "\(measure.stderr)")
            #expect(measure.stderr.contains("the sample rate changed from 48000 to 44100 Hz during the measurement; measuring again"),
                    "\(measure.stderr)")
            let summary = try #require(measure.reports.last, "\(measure.stdout)\n\(measure.stderr)")
            #expect((summary["sample_rate_hz"] as? NSNumber)?.doubleValue == 44100, "\(summary)")
            let period = try #require(summary["period_frames"] as? Int)
            let latency = try #require(summary["latency_frames"] as? Double)
            #expect(abs(latency - Double(period)) < 0.01, "latency \(latency) frames at \(period) frames/period")
        }

        @Test("a quantum forced to 256 during measure --loopback: it measures again, and reads one new quantum")
        func quantumChangeDuringMeasure() throws {
            let pipeWire = try PrivatePipeWire()
            defer {
                try? pipeWire.forceQuantum(0)
                pipeWire.stop()
            }
            let measure = try pipeWire.live(["measure", "--loopback", "--json"])
            // "measuring…" comes a few periods before the recording (about 4 s at the default
            // --sweep-seconds 2): a second later the recording runs.
            #expect(measure.waitUntil(timeoutSeconds: 10) { $0.stderr.contains("measuring…") }, "\(measure.stderr)")
            usleep(1_000_000)
            try pipeWire.forceQuantum(256)
            #expect(measure.exitStatus(timeoutSeconds: 30)?.status == 0, "\(measure.stderr)")
            #expect(measure.stderr.contains("the period changed from 1024 to 256 frames during the measurement; measuring again"),
                    "\(measure.stderr)")
            let summary = try #require(measure.reports.last, "\(measure.stdout)\n\(measure.stderr)")
            #expect(summary["period_frames"] as? Int == 256)
            let latency = try #require(summary["latency_frames"] as? Double)
            #expect(abs(latency - 256) < 0.01, "latency \(latency) frames")
        }

        @Test("a quantum forced 2048 → 256 → released during a run: the listener says so, and no valid reading is wrong")
        func quantumChange() throws {
            let pipeWire = try PrivatePipeWire()
            defer {
                try? pipeWire.forceQuantum(0)
                pipeWire.stop()
            }
            let player = try startPlayer(on: pipeWire)
            defer { player.stop() }
            let listener = try startListener(on: pipeWire, ["--duration", "5"])
            #expect(listener.waitUntil(timeoutSeconds: 10) { !validFrequencies($0).isEmpty }, "\(listener.stderr)")
            for quantum in [2048, 256, 0] {
                try pipeWire.forceQuantum(quantum)
                usleep(1_000_000)
            }
            #expect(listener.exitStatus(timeoutSeconds: 20)?.status == 0, "\(listener.stderr)")
            let readings = validFrequencies(listener)
            #expect(readings.count >= 50, "\(listener.stdout)\n\(listener.stderr)")
            let wrong = readings.filter { abs($0 - 997) >= 0.01 }
            #expect(wrong.isEmpty, "\(wrong.count) of \(readings.count) valid readings are not 997 Hz: \(wrong.prefix(8))")
            let changes = listener.reports.filter { $0["event"] as? String == "period_changed" }.compactMap { $0["period_frames"] as? Int }
            #expect(changes.contains(2048) && changes.contains(256), "period_changed events: \(changes)\n\(listener.stderr)")
            #expect(listener.stderr.contains("tonenode: period changed to 2048 frames"), "\(listener.stderr)")
        }
    }
}
