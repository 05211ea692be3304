import ArgumentParser
import Foundation
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneEngine
import ToneJack
import ToneWeb

/// `run --web`: the live page's server, fed the way the report sink is fed
/// (`WebReportSink` on the worker, or the supervisor's events with a live
/// view), and controlled through the supervisor's one door, as stdin and OSC are.
struct NodeWeb {
    let server: WebServer
    let channels: Int
    let settings: @Sendable () -> NodeSettings
    var hub: WebHub { server.hub }

    /// Starts the server of `options` and prints its URL (with a token made up now, that once).
    /// Throws `ExitCode.failure` after one line on stderr when it cannot listen.
    /// - Parameters:
    ///   - command: the page's view (`run`, `receive`).
    ///   - controls: whether the page may play the node (`run`'s controls; `receive` only watches).
    static func start(_ options: WebOptions, supervisor: NodeSupervisor, channels: Int, command: String = "run",
                      controls: Bool = true) async throws -> NodeWeb? {
        guard let address = options.web else { return nil }
        let (token, generated) = options.token()
        let settings = supervisor.settingsReader
        let hub = WebHub()
        let controller = supervisor.controller
        // The same door as stdin and OSC: ControlCommand's parsing and checks, then the supervisor's controller.
        let door: WebServer.ControlDoor = { line in
            do throws(ControlCommand.Problem) {
                guard let command = try ControlCommand.parse(line) else { return "'\(line)': not a command" }
                try controller(command)
            } catch {
                return error.description
            }
            hub.publish(settingsLine(settings()), retain: "settings")
            return nil
        }
        let server = WebServer(.init(host: address.host, port: address.port, token: token,
                                     extraHostNames: hostNames(), command: command,
                                     threadSetup: { _ = ProcessBridge.reniceCallingThreadOnce(Self.niceValue) }),
                               hub: hub, control: controls ? door : nil)
        let port: Int
        do {
            port = try await server.start()
        } catch {
            Console.err("error: --web \(address): cannot listen: \(error)")
            throw ExitCode.failure
        }
        hub.publish(settingsLine(settings()), retain: "settings")
        Console.err("web: " + WebOptions.pageURL(address, port: port, token: token)
                    + (generated ? " (token made up for this run: keep the whole URL)" : ""))
        return NodeWeb(server: server, channels: channels, settings: settings)
    }

    /// The server's threads' priority: the worker's (below the JACK thread, and below a studio's other work).
    static let niceValue: Int32 = 10

    /// This machine's names, by which another one may reach the page.
    static func hostNames() -> Set<String> {
        let name = ProcessInfo.processInfo.hostName.lowercased()
        return name.isEmpty ? [] : [name, name + ".local"]
    }

    /// A report as the page gets it: the JSON line of `--json`, every tone listed.
    static func line(_ report: ToneReport, channels: Int) -> String {
        ReportFormatter.json(report, channel: channels > 1 ? report.channel + 1 : nil, listTones: true)
    }

    static func settingsLine(_ settings: NodeSettings) -> String {
        var line = JSONLine()
        line.add("event", "node_settings")
        line.add("frequency_hz", settings.frequencyHz)
        line.add("level_dbfs", settings.levelDBFS)
        line.add("muted", settings.muted)
        line.add("glide_s", settings.glideSeconds)
        line.add("a4_hz", settings.a4Hz)
        line.add("channels", settings.channels)
        return line.description
    }
}
