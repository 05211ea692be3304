import EndToEndSupport
import Foundation
import Testing

/// Several `tonenode run --plain` on one server, the way a studio runs them:
/// started at once, signalled at the same instant, waited for together.
/// Released, each still running is stopped by PID. Test thread only.
final class NodeGroup {
    let names: [String]
    let nodes: [LiveCommand]

    /// Starts `count` nodes named PREFIX1…PREFIXcount on `server` (more
    /// options in `options`) and waits (bounded) until each has opened its
    /// client; one that has not is a recorded failure.
    init(count: Int = 8, server: String, prefix: String = "n", options: [String] = [],
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        names = (1...count).map { "\(prefix)\($0)" }
        nodes = try names.map { try LiveCommand(["run", "-s", server, "-n", $0, "--plain"] + options) }
        let deadline = Date().addingTimeInterval(10)
        for (node, name) in zip(nodes, names) {
            let opened = node.waitUntil(timeoutSeconds: max(0, deadline.timeIntervalSinceNow)) {
                $0.stderr.contains("client '\(name)'")
            }
            if !opened {
                Issue.record("\(name) did not open its client within 10 s: \(node.stderr)", sourceLocation: sourceLocation)
            }
        }
    }

    deinit { nodes.forEach { $0.stop() } }

    /// Sends `signal` to every node, one right after another.
    func signal(_ signal: Int32) { nodes.forEach { $0.signal(signal) } }

    /// How many are still running.
    var running: Int { nodes.filter(\.isRunning).count }

    /// Waits for every node, `timeoutSeconds` at most for all of them; one
    /// still running then is SIGKILLed and counts as hung. The statuses as a
    /// shell gives them (128 + the signal of one killed by a signal, nil: hung)
    /// and the seconds until the last one ended.
    func waitAll(timeoutSeconds: Double) -> (statuses: [Int32?], seconds: Double) {
        let start = Date()
        let deadline = start.addingTimeInterval(timeoutSeconds)
        var statuses: [Int32?] = []
        for node in nodes {
            guard let exit = node.exitStatus(timeoutSeconds: max(0, deadline.timeIntervalSinceNow)) else {
                statuses.append(nil)
                continue
            }
            statuses.append(exit.reason == .exit ? exit.status : 128 + exit.status)
        }
        let seconds = Date().timeIntervalSince(start)
        nodes.forEach { node in
            if node.isRunning { node.signal(SIGKILL) }
        }
        return (statuses, seconds)
    }

    /// The nodes whose stderr contains `text`.
    func saying(_ text: String) -> [String] {
        zip(names, nodes).filter { $0.1.stderr.contains(text) }.map(\.0)
    }

    /// For a message: the statuses, "hung" for a node that did not end.
    static func describe(_ statuses: [Int32?]) -> String {
        statuses.map { $0.map(String.init) ?? "hung" }.joined(separator: " ")
    }
}
