import EndToEndSupport
import Foundation

/// A private X server (Xvfb, Debian `xvfb`) for one test: the display a
/// plugin host shows its plugin's face on. Xvfb picks a free display number
/// itself (`-displayfd`), so tests beside each other never share one.
/// Stopped by PID when released. Test thread only.
final class XvfbDisplay {
    static let executable = "/usr/bin/Xvfb"

    let command: LiveCommand
    /// `:N`, for `DISPLAY`.
    let name: String

    init(widthPx: Int = 1280, heightPx: Int = 1024) throws {
        // -displayfd 1: the display's number on stdout once the server accepts clients.
        command = try LiveCommand(["-displayfd", "1", "-screen", "0", "\(widthPx)x\(heightPx)x24", "-nolisten", "tcp"],
                                  executable: Self.executable, stopGraceSeconds: 3)
        var number: Int?
        _ = command.waitUntil(timeoutSeconds: 15) { command in
            number = command.lines(from: 0).first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return number != nil || !command.isRunning
        }
        guard let number else {
            command.stop()
            throw LV2BundleError("Xvfb did not start: \(command.stderr)")
        }
        name = ":\(number)"
    }

    deinit { stop() }

    var environment: [String: String] { ["DISPLAY": name] }

    func stop() { command.stop() }
}
