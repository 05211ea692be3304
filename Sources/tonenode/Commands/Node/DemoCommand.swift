import ArgumentParser
import Foundation
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Self-test: play tones into our own input and check each is identified.",
        discussion: """
            Uses the running JACK server, or starts a private dummy one (and stops \
            it at the end) when none is reachable. Connects `out` to `in`, steps \
            through low, mid and near-ultrasonic tones, and prints what it played \
            next to what it detected. Exit status 0 only if every tone was \
            identified within 0.01 Hz and 0.1 dB.
            """)

    @Option(name: [.customShort("n"), .long], help: "JACK client name.")
    var name = "tonenode-demo"

    @OptionGroup var jackServer: ServerOption
    var server: String? { jackServer.server }

    @Option(Parameters.Demo.level, parsing: .unconditional)
    var level: Double

    func validate() throws {
        let declared = Parameters.Demo.level
        guard declared.accepts(level) else {
            throw ValidationError("\(declared.commandLineName) must be between \(declared.rangeText("and")) dBFS")
        }
    }

    func run() async throws {
        // Watched from the start: a signal stops the node and, above all, the
        // private jackd this may start (else it would outlive the demo).
        SignalWatcher.endsOnSignal()
        var privateServer: PrivateJackServer?
        var serverName = server
        if !JackClient.serverIsReachable(serverName: server) {
            Console.err("no JACK server reachable; starting a private dummy server")
            let started = try PrivateJackServer()
            privateServer = started
            SignalWatcher.endsWithForcedExit(started.pid)
            serverName = started.name
            Console.err("started jackd '\(started.name)' (pid \(started.pid)), 48000 Hz, 256 frames/period")
        }
        defer { privateServer?.stop() }
        if SignalWatcher.isStopRequested { return }

        var settings = NodeSettings()
        settings.clientName = name
        settings.serverName = serverName
        settings.levelDBFS = level
        settings.loopback = true
        settings.hopFrames = 1024
        let node = try Node(settings: settings)
        defer { node.stop() }
        SignalWatcher.endsOnSignal(node.stopRequester)
        Console.onOutputFailure(node.stopRequester)
        let rate = Double(node.client.sampleRateHz)
        Console.err("client '\(node.client.name)': \(node.outputPortName) → \(node.inputPortName)")

        let tones = [55.0, 440.0, 1000.0, 5_000.0, min(18_500.0, 0.45 * rate)]
        let plan = DemoPlan(tones: tones, sampleRateHz: rate, fftSize: settings.fftSize)
        Console.out("   played Hz      detected Hz      error Hz    level dBFS   SNR dB   ok")
        var failures = 0
        var iterator = node.events.makeAsyncIterator()
        for tone in tones {
            if SignalWatcher.isStopRequested { return }
            // Through the node's one door, as a `freq` line on stdin or OSC would (Nyquist checked).
            try node.apply(.frequency(hz: tone))
            // Reports count from the first frame the node captured; skip
            // windows that still hold the previous tone or the ramp.
            let settleFrames = node.renderedFrames
                + settings.fftSize + 4 * node.client.bufferFrames + Int(0.01 * rate)
            var readings: [ToneReading] = []
            while readings.count < plan.readingsPerTone, let event = await iterator.next() {
                switch event {
                case .report(let report) where report.timeSeconds * rate >= Double(settleFrames):
                    readings.append(report.reading)
                case .serverGone:
                    Console.err(ServerNotice.goneLine(retrying: false))
                    throw ExitCode.failure
                case .sampleRateChanged(let rateHz):
                    Console.err("error: the sample rate changed from \(Int(rate)) to \(rateHz) Hz during the demo")
                    throw ExitCode.failure
                default:
                    break
                }
            }
            if SignalWatcher.isStopRequested { return }
            let verdict = plan.judge(played: tone, levelDBFS: level, readings: readings)
            if !verdict.ok { failures += 1 }
            Console.out(verdict.line)
        }
        if failures > 0 {
            Console.err("error: \(failures) of \(tones.count) tones were not identified")
            throw ExitCode.failure
        }
        Console.err("all \(tones.count) tones identified")
    }
}

/// The demo's tones and its pass rule.
struct DemoPlan {
    let tones: [Double]
    let sampleRateHz: Double
    let fftSize: Int
    let readingsPerTone = 6
    let toleranceHz = 0.01
    let toleranceDB = 0.1

    struct Verdict {
        let ok: Bool
        let line: String
    }

    func judge(played: Double, levelDBFS: Double, readings: [ToneReading]) -> Verdict {
        let detected = readings.compactMap(\.frequencyHz)
        let levels = readings.compactMap(\.levelDBFS)
        let snrs = readings.compactMap(\.snrDB)
        guard detected.count == readings.count, !detected.isEmpty else {
            return Verdict(ok: false, line: String(format: "%11.3f   %14@", played, "no tone") + "      FAIL")
        }
        let worstError = detected.map { abs($0 - played) }.max() ?? .infinity
        let worstLevel = levels.map { abs($0 - levelDBFS) }.max() ?? .infinity
        let mean = detected.reduce(0, +) / Double(detected.count)
        let ok = worstError <= toleranceHz && worstLevel <= toleranceDB
        let line = String(format: "%11.3f   %14.6f   %11.2e   %11.3f   %6.1f   %@",
                          played, mean, worstError, levels.reduce(0, +) / Double(levels.count),
                          snrs.min() ?? 0, ok ? "yes" : "FAIL")
        return Verdict(ok: ok, line: line)
    }
}
