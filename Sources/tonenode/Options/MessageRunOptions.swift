import ArgumentParser
import ToneCore
import ToneDSP
import ToneModem

extension ModemProfile: ExpressibleByArgument {}
extension MessageFileProfile: ExpressibleByArgument {}

/// `run --send` / `run --receive`: messages as tones beside the tone.
struct MessageRunOptions: ParsableArguments {
    @Option(name: Parameters.message.optionName, help: Parameters.message.argumentHelp)
    var send: String?

    @Option(Parameters.sendProfile)
    var sendProfile: MessageFileProfile

    @Option(Parameters.sendLevel, parsing: .unconditional)
    var sendLevel: Double

    @Flag(Parameters.receive)
    var receive: Bool

    @Option(name: Parameters.runReceiveProfile.optionName, help: Parameters.runReceiveProfile.argumentHelp)
    var receiveProfile: MessageFileProfile?

    /// Whether the node decodes messages on `in` (`--receive`, or a `--receive-profile`).
    var receives: Bool { receive || receiveProfile != nil }

    func validate() throws {
        // A cable transmission has no length cap; the tone profiles' frame does.
        if let send, let problem = NodeSettings.messageProblem(byteCount: send.utf8.count),
           sendProfile != .cable || send.isEmpty {
            throw ValidationError(problem.description)
        }
        try Transmission.validate(levelDBFS: sendLevel, Parameters.sendLevel)
    }
}
