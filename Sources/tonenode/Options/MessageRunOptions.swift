import ArgumentParser
import ToneCore
import ToneDSP

/// `run --send` / `run --receive`: messages as tones beside the tone.
struct MessageRunOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Send this message once on `out` right after start, added to the tone (add --mute to send it alone).",
        valueName: "text"))
    var send: String?

    @Option(name: .customLong("send-profile"), help: "Band and speed of --send.")
    var sendProfile: ModemProfile = .ultrasonic

    @Option(name: .customLong("send-level"), parsing: .unconditional, help: ArgumentHelp("Peak level of --send in dBFS (≤ 0).", valueName: "dbfs"))
    var sendLevel = -6.0

    @Flag(help: "Also decode messages sent as tones on `in`; each is printed on stdout as `receive` prints it, beside the reports.")
    var receive = false

    func validate() throws {
        if let send, let problem = NodeSettings.messageProblem(byteCount: send.utf8.count) {
            throw ValidationError(problem.description)
        }
        try Transmission.validate(levelDBFS: sendLevel, option: "--send-level")
    }
}
