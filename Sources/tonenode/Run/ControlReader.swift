import Foundation
import ToneCore
import ToneCommandLine

/// Reads control commands from stdin, one per line, on a thread of its own,
/// for as long as stdin is open: script lines when stdin is a pipe or file,
/// at a `tonenode> ` prompt (on stderr) when it is a terminal. A bad line is
/// one error line on stderr; the node keeps running with its previous settings.
enum ControlReader {
    static let prompt = "tonenode> "
    static let hint = "type freq HZ, level DBFS, mute on|off, beep HZ SECONDS or sweep START_HZ END_HZ SECONDS"

    /// - Parameter liveView: the live view on this terminal, if any: it then
    ///   draws the prompt and the typed line below itself, and errors go above it.
    static func start(liveView: LiveViewRenderer? = nil,
                      apply: @escaping @Sendable (ControlCommand) throws(ControlCommand.Problem) -> Void) {
        let interactive = isatty(STDIN_FILENO) == 1
        let editor = liveView.flatMap { view in interactive ? LineEditor { view.setInput($0) } : nil }
        let report: @Sendable (String) -> Void = { line in
            if let liveView { liveView.printAbove { Console.err(line) } } else { Console.err(line) }
        }
        let thread = Thread {
            if interactive { report(hint) }
            while true {
                if interactive, editor == nil {
                    Console.errText(prompt)
                    TerminalLine.promptShown(on: STDERR_FILENO)
                }
                let typed = if let editor { editor.readLine() } else { readLine() }
                guard let line = typed else { break }
                do throws(ControlCommand.Problem) {
                    if let command = try ControlCommand.parse(line) { try apply(command) }
                } catch {
                    report("error: " + error.description)
                }
            }
        }
        thread.name = "tonenode-control"
        _ = editor  // restored at exit (LineEditor.restore via atexit, or the live view's finish)
        thread.start()
    }
}
