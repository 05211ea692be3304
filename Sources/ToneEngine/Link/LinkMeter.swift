import Foundation
import ToneDSP
import ToneJack

/// Measures a link for as long as it is asked to: one JACK client (ports
/// `in`, `out`), a `LinkEngine` on the JACK thread, the analysis on the
/// calling thread (one FFT pass per probe period, about three a second).
///
/// Order as in jack2's simple_client: open → probe for the server's rate →
/// register → callbacks → activate → connect → read until told to stop, the
/// time is up or the server goes away. Main thread only.
public enum LinkMeter {
    public struct Settings: Sendable {
        public var clientName = "tonenode"
        public var serverName: String?
        public var connectIn: [String] = []
        public var connectOut: [String] = []
        /// Play the probe (round trip); false: only listen (one way).
        public var plays = true
        public var levelDBFS = LinkProbe.defaultLevelDBFS
        public init() {}
    }

    /// How one session (one server connection) ended.
    public enum Ending: Sendable, Equatable {
        case stopped
        case serverGone
        /// The server's sample rate changed (PipeWire's `clock.force-rate`): the probe is made for the old one.
        case sampleRateChanged(fromHz: Int, toHz: Int)
    }

    public struct Session {
        public var clientName: String
        public var sampleRateHz: Int
        public var periodFrames: Int
        public var xruns: Int
        /// Frames our own capture ring lost (the analysis fell behind), not the link's.
        public var capturedFramesLost: Int
        public var analyzer: LinkAnalyzer
        public var ending: Ending
    }

    /// - Parameters:
    ///   - opened: after activation and connection (client, probe, input and output port names).
    ///   - onReading: each reading as it completes, with the analyzer that
    ///     made it and whether its period of probe may span a change of the
    ///     server's period (PipeWire's quantum, `jack_bufsize`): the loop's
    ///     latency changes with the period, and such a reading mixes both.
    ///   - onPeriodChange: the server's period changed (from, to frames).
    ///   - shouldStop: asked between waits (about every 100 ms).
    public static func measure(_ settings: Settings,
                               opened: (JackClient, LinkProbe, String, String) -> Void,
                               onReading: (LinkReading, LinkAnalyzer, _ spansPeriodChange: Bool) -> Void,
                               onPeriodChange: (_ fromFrames: Int, _ toFrames: Int) -> Void = { _, _ in },
                               shouldStop: () -> Bool) throws -> Session {
        let client = try JackClient(name: settings.clientName, serverName: settings.serverName)
        defer { client.close() }
        // Made at the open, while the server listens (see StalledServerWatch).
        let serverWatch = ServerWatch(serverName: client.serverName)
        let sampleRateHz = client.sampleRateHz
        let probe = LinkProbe(sampleRateHz: Double(sampleRateHz), levelDBFS: settings.levelDBFS)
        let engine = LinkEngine(probe: probe, plays: settings.plays)
        let inPort = try client.registerAudioPort("in", isInput: true)
        let outPort = try client.registerAudioPort("out", isInput: false)
        let bridge = try ProcessBridge(client: client, channels: [(inPort, outPort)],
                                       wakeEveryFrames: probe.periodFrames / 4,
                                       renderer: engine, render: LinkEngine.renderFunction)
        // The client is closed, and its callbacks stop, before the bridge goes;
        // after a server loss, at most 2 s later (a stopped server never answers).
        defer { client.close(keeping: bridge) }
        try client.activate()
        let input = client.fullName(of: inPort), output = client.fullName(of: outPort)
        for source in settings.connectIn { try client.connect(from: source, to: input) }
        for destination in settings.connectOut { try client.connect(from: output, to: destination) }
        opened(client, probe, input, output)

        let analyzer = LinkAnalyzer(probe: probe, unwraps: !settings.plays)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: probe.periodFrames)
        defer { scratch.deallocate() }
        var streamFrame = 0
        var ending = Ending.stopped
        // Where a period change may lie: between the stream frame read at
        // the look before the one that saw it and the frame read at that look.
        var period = bridge.periodWatch.snapshot
        var lookedFrame = 0
        var changeSpans: [Range<Int>] = []
        // A server that died without libjack saying so ends the session too.
        var stalledServer = serverWatch.map {
            StalledServerWatch(bridge: bridge, server: $0, nowNs: DispatchTime.now().uptimeNanoseconds)
        }
        while true {
            if shouldStop() { break }
            if bridge.isShutdown {
                ending = .serverGone
                break
            }
            if case let rate = bridge.periodWatch.sampleRate, rate.changes > 0 {
                ending = .sampleRateChanged(fromHz: sampleRateHz, toHz: rate.rateHz)
                break
            }
            bridge.wait(timeoutMilliseconds: 100)
            stalledServer?.look(nowNs: DispatchTime.now().uptimeNanoseconds)
            let periodNow = bridge.periodWatch.snapshot
            let capturedNow = streamFrame + engine.capture.frames.readableCount
            if periodNow.changes != period.changes {
                onPeriodChange(period.periodFrames, periodNow.periodFrames)
                changeSpans = (changeSpans + [lookedFrame..<capturedNow + 1]).suffix(4)
                period = periodNow
            }
            lookedFrame = capturedNow
            while true {
                let (count, gap) = engine.capture.read(into: scratch, maxCount: probe.periodFrames)
                if let gap { streamFrame += gap.frames }
                if count == 0 && gap == nil { break }
                guard count > 0 else { continue }
                for reading in analyzer.append(UnsafeBufferPointer(start: scratch, count: count), startFrame: streamFrame) {
                    let endFrame = Int((reading.timeSeconds * Double(sampleRateHz)).rounded())
                    let window = (endFrame - probe.periodFrames)..<endFrame
                    onReading(reading, analyzer, changeSpans.contains { $0.overlaps(window) })
                }
                streamFrame += count
            }
        }
        analyzer.finish()
        return Session(clientName: client.name, sampleRateHz: sampleRateHz, periodFrames: client.bufferFrames,
                       xruns: bridge.xruns, capturedFramesLost: engine.capture.droppedFrames.load(ordering: .relaxed),
                       analyzer: analyzer, ending: ending)
    }
}
