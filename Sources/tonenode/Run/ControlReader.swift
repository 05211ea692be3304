import Foundation
import ToneCore

/// Reads control commands from stdin, one per line, on a thread of its own,
/// for as long as stdin is open: script lines when stdin is a pipe or file,
/// at a `tonenode> ` prompt (on stderr) when it is a terminal. A bad line is
/// one error line on stderr; the node keeps running with its previous settings.
enum ControlReader {
    static func start(apply: @escaping @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void) {
        let interactive = isatty(STDIN_FILENO) == 1
        let thread = Thread {
            if interactive {
                Console.err("type freq HZ, level DBFS, mute on|off, beep HZ SECONDS or sweep START_HZ END_HZ SECONDS")
            }
            while true {
                if interactive { Console.errText("tonenode> ") }
                guard let line = readLine() else { break }
                do throws(ControlCommand.Problem) {
                    if let command = try ControlCommand.parse(line) { try apply(command) }
                } catch {
                    Console.err("error: " + error.description)
                }
            }
        }
        thread.name = "tonenode-control"
        thread.start()
    }
}
