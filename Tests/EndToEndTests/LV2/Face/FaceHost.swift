import EndToEndSupport
import Foundation
import Testing

/// `jalv.gtk3` (Debian `jalv`) showing one of ToneNode's plugins with its face
/// (the bundle's X11 UI, embedded through suil) on a private X server and a
/// test's JACK server. The face writes what it drew to `reportPath`
/// (TONENODE_LV2UI_REPORT, Sources/ToneLV2UI/face_report.c); jalv prints the
/// plugin's control outputs as they change (`--print-controls`). Test thread only.
final class FaceHost {
    static let executable = "/usr/bin/jalv.gtk3"

    /// Why the face tests cannot run here, or nil.
    static var missing: String? {
        let tools = [executable, XvfbDisplay.executable, "/usr/bin/xwininfo", "/usr/bin/xdotool"]
        if let absent = tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            return "\(absent) is not installed (scripts/install-deps)"
        }
        let suil = "/usr/lib/x86_64-linux-gnu/suil-0/libsuil_x11_in_gtk3.so"
        guard FileManager.default.fileExists(atPath: suil) else { return "suil's X11-in-GTK3 wrapper is not installed" }
        guard FileManager.default.fileExists(atPath: productsDirectory.appendingPathComponent("libToneNodeLV2UI.so").path) else {
            return "libToneNodeLV2UI.so is not built"
        }
        if case .failure(let error) = xface { return error.description }
        return nil
    }

    /// `xface` (this folder's xface.c: screenshot, close, resize), compiled once.
    static let xface: Result<String, LV2BundleError> = {
        let output = NSTemporaryDirectory() + "tn-xface-\(getpid())"
        let script = "cc -O1 -Wall -Wextra -Werror -o '\(output)' '\(LV2Bundle.packageRoot)/Tests/EndToEndTests/LV2/Face/xface.c' "
            + "$(pkg-config --cflags --libs x11 cairo)"
        guard let built = try? runCommand(["-c", script], executable: "/bin/sh", timeoutSeconds: 60), built.status == 0 else {
            return .failure(LV2BundleError("xface.c did not compile (libx11-dev, libcairo2-dev installed?)"))
        }
        return .success(output)
    }()

    let name: String
    let command: LiveCommand
    let display: XvfbDisplay
    let reportPath: String

    init(name: String, uri: String, server: String, display: XvfbDisplay, controls: [String: Double] = [:]) throws {
        self.name = name
        self.display = display
        reportPath = NSTemporaryDirectory() + "tn-face-\(name)-\(getpid())-\(UUID().uuidString).txt"
        let settings = controls.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
        let environment = display.environment.merging([
            "JACK_DEFAULT_SERVER": server, "LV2_PATH": try LV2Bundle.staged.get(), "TONENODE_LV2UI_REPORT": reportPath,
            // No accessibility bus under Xvfb: GTK would wait for one.
            "NO_AT_BRIDGE": "1",
        ]) { $1 }
        // Through stdbuf (it execs jalv.gtk3: one PID), so each printed control is a line at once.
        command = try LiveCommand(["-oL", Self.executable, "--jack-name", name, "--exact-jack-name", "--print-controls"]
                                  + settings + [uri],
                                  executable: "/usr/bin/stdbuf", environment: environment, stopGraceSeconds: 3)
    }

    deinit { stop() }

    func stop() {
        command.stop()
        try? FileManager.default.removeItem(atPath: reportPath)
    }

    /// What the face last drew (its report's `key=value` lines), or nil before its first draw.
    var drawn: [String: String]? {
        guard let text = try? String(contentsOfFile: reportPath, encoding: .utf8) else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// The plugin's control outputs as jalv last printed them (`SYMBOL = VALUE`).
    var printed: [String: Double] {
        var values: [String: Double] = [:]
        for line in command.lines(from: max(0, command.lineCount - 200)) {
            let parts = line.split(separator: "=")
            guard parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            values[parts[0].trimmingCharacters(in: .whitespaces)] = value
        }
        return values
    }

    /// Polls the face's report until `condition` holds (bounded); the last report seen.
    @discardableResult
    func waitForDrawn(timeoutSeconds: Double = 10, _ condition: ([String: String]) -> Bool) -> [String: String]? {
        var last: [String: String]?
        _ = command.waitUntil(timeoutSeconds: timeoutSeconds) { _ in
            last = drawn
            return last.map(condition) ?? false
        }
        return last
    }

    /// The X windows of jalv's top level (title `title`) and of the face inside it
    /// (`faceTitle`), once both exist (bounded wait), by `xwininfo -root -tree`.
    func waitForWindows(title: String, faceTitle: String, timeoutSeconds: Double = 20) -> (topLevel: String, face: String)? {
        var found: (String, String)?
        _ = command.waitUntil(timeoutSeconds: timeoutSeconds) { _ in
            guard let tree = try? runCommand(["-root", "-tree"], executable: "/usr/bin/xwininfo",
                                             environment: display.environment, timeoutSeconds: 5) else { return false }
            func window(_ quoted: String) -> String? {
                tree.stdoutLines.first { $0.contains("\"\(quoted)\":") }?
                    .trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
            }
            if let topLevel = window(title), let face = window(faceTitle) { found = (topLevel, face) }
            return found != nil
        }
        return found
    }

    /// `xface ARGUMENTS…` on this host's display.
    func xface(_ arguments: [String]) throws -> CommandResult {
        try runCommand(arguments, executable: Self.xface.get(), environment: display.environment, timeoutSeconds: 20)
    }

    /// `xdotool ARGUMENTS…` on this host's display.
    func xdotool(_ arguments: [String]) throws -> CommandResult {
        try runCommand(arguments, executable: "/usr/bin/xdotool", environment: display.environment, timeoutSeconds: 10)
    }

    /// The face window's upper-left corner on the screen (`xwininfo -id`).
    func screenOrigin(of window: String) throws -> (x: Int, y: Int) {
        let info = try runCommand(["-id", window], executable: "/usr/bin/xwininfo", environment: display.environment,
                                  timeoutSeconds: 5)
        func field(_ label: String) -> Int? {
            info.stdoutLines.first { $0.contains(label) }.flatMap { Int($0.split(separator: ":").last?
                .trimmingCharacters(in: .whitespaces) ?? "") }
        }
        guard let x = field("Absolute upper-left X"), let y = field("Absolute upper-left Y") else {
            throw LV2BundleError("xwininfo -id \(window): \(info.stdout) \(info.stderr)")
        }
        return (x, y)
    }
}
