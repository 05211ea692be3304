import ArgumentParser
import ToneCore
import ToneDSP

extension ModemProfile: ExpressibleByArgument {}
extension MessageFileProfile: ExpressibleByArgument {}

/// `run --send` / `run --receive`: messages as tones beside the tone.
struct MessageRunOptions: ParsableArguments {
    @Option(name: Parameters.message.optionName, help: Parameters.message.argumentHelp)
    var send: String?

    @Option(Parameters.sendProfile)
    var sendProfile: ModemProfile

    @Option(Parameters.sendLevel, parsing: .unconditional)
    var sendLevel: Double

    @Flag(Parameters.receive)
    var receive: Bool

    func validate() throws {
        if let send, let problem = NodeSettings.messageProblem(byteCount: send.utf8.count) {
            throw ValidationError(problem.description)
        }
        try Transmission.validate(levelDBFS: sendLevel, Parameters.sendLevel)
    }
}
