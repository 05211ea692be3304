import Foundation
import ToneCommandLine
import ToneEngine
import ToneWeb

extension NodeWeb {
    /// The supervisor's events the page shows: the client, xruns, period and
    /// rate changes, the server going; reports and messages too when no sink takes them (the live view).
    func handle(_ event: NodeSupervisor.Event) {
        switch event {
        case .opened(let node, _):
            var line = JSONLine()
            line.add("event", "opened")
            line.add("client", node.client.name)
            line.add("sample_rate_hz", node.client.sampleRateHz)
            line.add("period_frames", node.client.bufferFrames)
            let ports = node.inputPortNames + node.outputPortNames
            let connections = ports.flatMap { port in node.client.connections(ofPort: port).map { "\(port) ↔ \($0)" } }
            hub.publish(Self.adding(["inputs": node.inputPortNames, "outputs": node.outputPortNames,
                                     "connections": connections], to: line), retain: "opened")
        case .report(let report):
            hub.publish(Self.line(report, channels: channels), history: true)
        case .trouble(let xruns, let overflows, let dropped):
            var line = JSONLine()
            line.add("event", "trouble")
            line.add("xruns", xruns)
            line.add("overflows", overflows)
            line.add("dropped_frames", dropped)
            hub.publish(line.description, retain: "trouble")
        case .periodChanged(let frames):
            hub.publish(NodeOutput.periodChangedJSON(frames))
        case .sampleRateChanged(_, let to):
            hub.publish(ServerNotice.sampleRateChangedJSON(toHz: to))
        case .serverGone(let retrying):
            hub.publish("{\"event\":\"server_gone\",\"retrying\":\(retrying)}")
        case .message(.cable, _, _):
            break
        case .message(let message, let channel, let offset):
            hub.publish(ReportLineSink.line(message, channel: channel, timeOffsetSeconds: offset, json: true, channels: channels),
                        history: true)
        case .callbackProfile, .connectionsPending, .connectionsRestored:
            break
        }
    }

    /// Twice a second until cancelled: what the node withheld or dropped, for
    /// the page's marks, and its settings when stdin or OSC changed them.
    func statusTask() -> Task<Void, Never> {
        Task { [hub, settings] in
            var settingsSent = ""
            while !Task.isCancelled {
                let settingsLine = Self.settingsLine(settings())
                if settingsLine != settingsSent {
                    settingsSent = settingsLine
                    hub.publish(settingsLine, retain: "settings")
                }
                var line = JSONLine()
                line.add("event", "status")
                line.add("withheld", Node.withheldReadings)
                line.add("dropped_reports", Node.droppedEvents)
                line.add("web_tabs", hub.openTabs)
                hub.publish(line.description, retain: "status")
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// `line` with lists of strings added (keys in order), which JSONLine does not write.
    static func adding(_ lists: KeyValuePairs<String, [String]>, to line: JSONLine) -> String {
        var text = String(line.description.dropLast())
        for (key, values) in lists {
            text += "," + JSONLine.quoted(key) + ":[" + values.map(JSONLine.quoted).joined(separator: ",") + "]"
        }
        return text + "}"
    }
}
