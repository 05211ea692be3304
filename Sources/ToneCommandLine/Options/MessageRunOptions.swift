import ArgumentParser
import ToneCore
import ToneDSP
import ToneModem

extension ModemProfile: ExpressibleByArgument {}
extension MessageFileProfile: ExpressibleByArgument {}

/// `run --send` / `run --receive`: messages as tones beside the tone.
public struct MessageRunOptions: ParsableArguments {
    public init() {}

    @Option(name: Parameters.message.optionName, help: Parameters.message.argumentHelp)
    public var send: String?

    @Option(Parameters.sendProfile)
    public var sendProfile: MessageFileProfile

    @Option(Parameters.sendLevel, parsing: .unconditional)
    public var sendLevel: Double

    @Flag(Parameters.receive)
    public var receive: Bool

    @Option(name: Parameters.runReceiveProfile.optionName, help: Parameters.runReceiveProfile.argumentHelp)
    public var receiveProfile: MessageFileProfile?

    /// Whether the node decodes messages on `in` (`--receive`, or a `--receive-profile`).
    public var receives: Bool { receive || receiveProfile != nil }

    public func validate() throws {
        // A cable transmission has no length cap; the tone profiles' frame does.
        if let send, let problem = NodeSettings.messageProblem(byteCount: send.utf8.count),
           sendProfile != .cable || send.isEmpty {
            throw ValidationError(problem.description)
        }
        try Parameters.sendLevel.validateLevel(dBFS: sendLevel)
    }
}
