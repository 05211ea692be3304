import ArgumentParser
import ToneAudioFile
import ToneDSP
import ToneModem
import ToneCommandLine

public struct DecodeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print the messages sent as tones in an audio file (WAV, FLAC, AIFF, Ogg … at any rate).",
        discussion: """
            Listens for every profile the file's rate allows (or only --profile). \
            With -o, the first message's bytes go to that file instead (a cable \
            transmission first: --profile cable, or -o without --profile). \
            Each message is one line: time, profile, SNR, then the text (or base64: \
            when it is not valid UTF-8). A multi-frame message with a frame missing \
            is reported as incomplete and its bytes are not printed. With --json, one \
            object per line: time_s, text (when valid UTF-8), base64, profile, snr_db \
            (in-band SNR on the data subcarriers), frames; incomplete messages carry \
            "incomplete":true instead of text.
            Exit status: 0 when at least one message was decoded, 1 when none (like grep) \
            or on an error, 64 on a bad option.
            """)

    @Argument(help: ArgumentHelp("The audio file.", valueName: "file"))
    var file: String

    @Flag(help: "One JSON object per line.")
    var json = false

    @Option(help: "Listen only for this profile.")
    var profile: MessageFileProfile?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "Write the message's bytes to this file instead of printing a line.", valueName: "path"))
    var output: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Channel to decode, counting from 1.", valueName: "k"))
    var channel = 1

    public init() {}

    public func validate() throws {
        guard channel >= 1 else { throw ValidationError("--channel counts from 1") }
        if let output { try OutputFileProblem.requireWritable(path: output) }
    }

    public func run() throws {
        var reader = try AudioFileReader(path: file)
        if let profile, let problem = profile.problem(sampleRateHz: reader.sampleRateHz) {
            throw ModemCommandError("\(file): \(problem)")
        }
        let triesCable = profile == .cable || (profile == nil && output != nil && CableGeometry(sampleRateHz: reader.sampleRateHz) != nil)
        if triesCable {
            if try decodeCable(reader) { return }
            // A reader reads its file once: the tone profiles read it anew.
            reader = try AudioFileReader(path: file)
        }
        var tones: [ModemProfile]?
        if case .tones(let chosen) = profile { tones = [chosen] }
        let receiver: ModemReceiver
        do {
            receiver = try ModemReceiver(sampleRateHz: reader.sampleRateHz, profiles: tones)
        } catch {
            throw ModemCommandError("\(file): \(error)")
        }
        var delivered = 0, incomplete = 0
        var writeFailure: (any Error)?
        func show(_ events: [ModemEvent]) {
            for event in events {
                if case .message(let message) = event {
                    delivered += 1
                    if delivered == 1, let output {
                        do { try Self.write(message.bytes, to: output) } catch { writeFailure = error }
                    }
                } else {
                    incomplete += 1
                }
                Console.out(json ? MessageFormatter.json(event) : MessageFormatter.human(event))
            }
        }
        try reader.forEachBlock(channel: channel - 1) { block in show(receiver.push(block)) }
        show(receiver.finish())
        if let writeFailure { throw writeFailure }
        // Nothing found is still one line a person sees (stdout stays empty for scripts).
        if delivered == 0 {
            // A cable transmission decoded as a tone profile is named, so the right --profile is one word away.
            let hint = triesCable || incomplete > 0 ? "" : Self.cableHint(path: file, channel: channel)
            throw ModemCommandError(incomplete == 0 ? "no message found in \(file)" + hint
                                        : "no complete message in \(file) (\(incomplete) incomplete, printed above)")
        }
    }
}
