import Foundation
import Testing

/// A headless `jalv` hosting one LV2 plugin as a JACK client on a test's
/// private server: a real plugin host for `measure` and `audit` to test
/// through. Stopped by `stop` or when released.
///
/// ```swift
/// let eq = try JalvHost(plugin: "http://gareus.org/oss/lv2/fil4#mono", name: "eq", server: server.name,
///                       controls: ["gain2": 6], waitFor: "eq:out")
/// ```
public final class JalvHost {
    private let process: LiveCommand

    /// Whether `jalv` and the plugin's bundle (`/usr/lib/lv2/NAME.lv2`) are installed.
    public static func isInstalled(bundle: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/jalv")
            && FileManager.default.fileExists(atPath: "/usr/lib/lv2/\(bundle).lv2")
    }

    /// Starts `jalv -n name -c symbol=value … uri` on `server` and waits for its port `waitFor`.
    public init(plugin uri: String, name: String, server: String, controls: [String: Double] = [:],
                waitFor port: String) throws {
        let settings = controls.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
        // jalv's console reads commands from stdin; a pipe kept open keeps it running.
        process = try LiveCommand(["-n", name] + settings + [uri], executable: "/usr/bin/jalv",
                                  environment: ["JACK_DEFAULT_SERVER": server], input: .pipe)
        do { try waitForPort(port, server: server) } catch {
            process.stop()
            throw error
        }
    }

    deinit { process.stop() }

    public func stop() { process.stop() }
}
