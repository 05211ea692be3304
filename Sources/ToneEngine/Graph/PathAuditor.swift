import Foundation
import ToneCore
import ToneDSP
import ToneJack

/// Measures every path from the ports our `out` feeds to the ports our `in`
/// reads, one at a time, and compares each with the latency JACK reports for it.
///
/// It walks the server's connections from the entries (`SignalGraph`), then
/// for each path lifts the connections that would let a second copy of the
/// stimulus into it, records the path alone with `ChainRecorder` (its own
/// client, connected to the path's entry and exit only) and puts the lifted
/// connections back before the next path. Each finished path goes to `each`
/// as soon as it is measured. On a signal (`shouldStop`) the recording
/// ends, the lifted connections go back and the audit throws. Main thread.
public final class PathAuditor {
    /// One path's figures.
    public struct PathResult: Sendable {
        public var path: SignalGraph.Path
        /// nil when nothing came through (a client's input that does not feed that output).
        public var verdict: LatencyVerdict?
        /// What JACK reports (capture latency) at each port of the path, in its order.
        public var reportedAtPorts: [ClosedRange<Int>?]
        /// Connections lifted while this path was measured (restored since).
        public var lifted: [SignalGraph.Edge]
        public var xruns: Int
    }

    public enum Failure: Error, CustomStringConvertible {
        /// A path start that is an output, or an end that is an input.
        case wrongDirection(port: String, option: String, wanted: String)

        public var description: String {
            switch self {
            case .wrongDirection(let port, let option, let wanted):
                return "\(option) \(port): a path \(option == "--connect-out" ? "starts" : "ends") at an \(wanted) port"
            }
        }
    }

    private let settings: ChainRecorder.Settings
    /// Opened without ports, never activated: it reads and changes connections.
    private let graphClient: JackClient

    /// - Parameter settings: `connectOut` names the entries (inputs our `out`
    ///   feeds), `connectIn` the exits (outputs our `in` reads).
    public init(_ settings: ChainRecorder.Settings) throws {
        self.settings = settings
        graphClient = try JackClient(name: String(settings.clientName.prefix(50)) + "-graph", serverName: settings.serverName)
        for port in settings.connectOut + settings.connectIn where !graphClient.portExists(port) {
            graphClient.close()
            throw JackError.noSuchPort(port)
        }
        for port in settings.connectOut where !graphClient.isInputPort(port) {
            graphClient.close()
            throw Failure.wrongDirection(port: port, option: "--connect-out", wanted: "input")
        }
        for port in settings.connectIn where graphClient.isInputPort(port) {
            graphClient.close()
            throw Failure.wrongDirection(port: port, option: "--connect-in", wanted: "output")
        }
    }

    deinit { graphClient.close() }

    /// The graph around the entries as it stands now. A hardware playback
    /// port leads nowhere (the backend's capture is another signal) unless
    /// it is an entry: then a cable is assumed, as `jack_iodelay` does.
    private func snapshot() -> SignalGraph {
        let client = graphClient, entries = Set(settings.connectOut)
        return SignalGraph.walk(from: settings.connectOut,
                                outputsOfInput: { input in
                                    entries.contains(input) || !client.isPhysicalPort(input)
                                        ? client.audioOutputs(ofClientOwning: input) : []
                                },
                                inputsOfOutput: { client.connections(ofPort: $0) })
    }

    /// Measures each path in turn; the graph is as it was when this returns or throws.
    /// - Parameters:
    ///   - shouldStop: polled while a path is recorded; true ends the audit
    ///     (`ChainRecorder.Failure.stopped`) with the graph restored.
    ///   - measuringAgain: a recording was cut by a change of the server's
    ///     period or sample rate (the loop's latency, or the signal's rate,
    ///     changed under it): the path is recorded again, up to
    ///     `attemptsAfterChanges` times in all; this is told why first.
    public func audit(makeSignal: (_ sampleRateHz: Double) throws -> MeasurementSignal,
                      shouldStop: () -> Bool = { false },
                      measuringAgain: (ChainRecorder.Failure) -> Void = { _ in },
                      each: (PathResult) -> Void) throws -> [PathResult] {
        let graph = snapshot()
        let paths = try graph.paths(from: settings.connectOut, to: settings.connectIn)
        var results: [PathResult] = []
        for path in paths {
            let lift = graph.connectionsToLift(isolating: path)
            try lifting(lift) {
                var pathSettings = settings
                pathSettings.connectOut = [path.entry]
                pathSettings.connectIn = [path.exit]
                func record() throws -> PathResult {
                    try measureAcrossChanges(path, lifted: lift, pathSettings, makeSignal: makeSignal,
                                             shouldStop: shouldStop, measuringAgain: measuringAgain)
                }
                var result = try record()
                for _ in 1..<Self.attemptsWithXruns where result.xruns > 0 {
                    let again = try record()
                    if again.xruns < result.xruns { result = again }
                }
                results.append(result)
                each(result)
            }
        }
        return results
    }

    /// A recording that saw xruns can be wrong (on this busy machine: 1 to 44
    /// frames off, or a whole period long, with tens of xruns; never seen
    /// without): such a path is recorded again, up to
    /// this many times in all, and the run with the fewest xruns kept (its
    /// `xruns` says how many it saw).
    static let attemptsWithXruns = 5

    /// Recordings cut by a period or sample-rate change taken again, this many in all.
    static let attemptsAfterChanges = 3

    /// `measure`, again when a change of the server's period or rate cut it.
    private func measureAcrossChanges(_ path: SignalGraph.Path, lifted: [SignalGraph.Edge],
                                      _ pathSettings: ChainRecorder.Settings,
                                      makeSignal: (_ sampleRateHz: Double) throws -> MeasurementSignal,
                                      shouldStop: () -> Bool,
                                      measuringAgain: (ChainRecorder.Failure) -> Void) throws -> PathResult {
        var attempt = 1
        while true {
            do {
                return try measure(path, lifted: lifted, pathSettings, makeSignal: makeSignal, shouldStop: shouldStop)
            } catch let failure as ChainRecorder.Failure where attempt < Self.attemptsAfterChanges {
                switch failure {
                case .periodChanged, .sampleRateChanged:
                    measuringAgain(failure)
                    attempt += 1
                default:
                    throw failure
                }
            }
        }
    }

    /// One recording of `path` (already isolated) and its verdict.
    private func measure(_ path: SignalGraph.Path, lifted: [SignalGraph.Edge], _ pathSettings: ChainRecorder.Settings,
                         makeSignal: (_ sampleRateHz: Double) throws -> MeasurementSignal,
                         shouldStop: () -> Bool) throws -> PathResult {
        var reported: [ClosedRange<Int>?] = []
        let recorded = try ChainRecorder.record(pathSettings, makeSignal: makeSignal, opened: { recorder, input, _ in
            reported = recorder.latencyRangesFrames(ofPorts: path.ports + [input], capture: true)
        }, shouldStop: shouldStop)
        let atInput = reported.popLast() ?? nil
        let verdict = try? recorded.recording.withUnsafeBufferPointer { recording in
            LatencyVerdict(roundTripFrames: try ChainAnalyzer.analyze(recorded.signal, recording: recording).latencyFrames,
                           periodFrames: recorded.periodFrames, reportedFrames: atInput ?? 0...0)
        }
        return PathResult(path: path, verdict: verdict, reportedAtPorts: reported, lifted: lifted, xruns: recorded.xruns)
    }

    /// Runs `body` with `edges` disconnected, and connects them again after
    /// it (also when it throws, or when a disconnection fails half way).
    private func lifting(_ edges: [SignalGraph.Edge], _ body: () throws -> Void) throws {
        var lifted: [SignalGraph.Edge] = []
        defer { for edge in lifted { try? graphClient.connect(from: edge.output, to: edge.input) } }
        for edge in edges {
            try graphClient.disconnect(from: edge.output, to: edge.input)
            lifted.append(edge)
        }
        try body()
    }
}
