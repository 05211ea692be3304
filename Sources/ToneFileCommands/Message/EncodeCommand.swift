import ArgumentParser
import Foundation
import ToneAudioFile
import ToneCommandLine
import ToneCore
import ToneDSP
import ToneModem

public struct EncodeCommand: ParsableCommand {
    private typealias Message = Parameters.Message

    public static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a message as tones into an audio file (WAV, FLAC, AIFF or Ogg, by its extension).",
        discussion: """
            The message is TEXT, the bytes of --file, or standard input with `-`; \
            up to \(ModemFrame.maximumMessageBytes) bytes, sent as frames of 32 bytes, \
            each with its own preamble and CRC-32. `tonenode decode` reads it back.
            \(Transmission.profilesHelp)
            cable: OFDM 200 Hz–20 kHz, 16384-QAM, for float or 24-bit files and cables \
            (~177 kbit/s at 44.1–96 kHz), any length; `decode FILE -o OUT` writes the bytes back. \
            send, receive and run do not take cable yet.
            """)

    @OptionGroup var input: MessageInput

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "The file to write, mono; its extension names the format: .wav (24-bit), .flac (24-bit), "
            + ".aiff (32-bit float), .ogg (Vorbis; lossy, the SNR drops to about 10 dB).", valueName: "path"))
    var output: String

    @Option(Message.fileRate, parsing: .unconditional)
    var rate: Int

    @Option(Message.fileProfile)
    var profile: MessageFileProfile

    @Option(Message.level, parsing: .unconditional)
    var level: Double

    public init() {}

    public func validate() throws {
        guard AudioFileFormat(path: output) != nil else {
            throw ValidationError("--output \(output): name the format with its extension: \(AudioFileFormat.extensionList)")
        }
        // A path it cannot write ends it before the work, in the line every file-writing option gives.
        try OutputFileProblem.requireWritable(path: output)
        guard Message.fileRate.accepts(Double(rate)) else {
            throw ValidationError("\(Message.fileRate.commandLineName) must be between \(Message.fileRate.rangeText("and")) Hz")
        }
        if let problem = profile.problem(sampleRateHz: Double(rate)) { throw ValidationError(problem) }
        try Message.level.validateLevel(dBFS: level)
    }

    public func run() throws {
        guard case .tones(let profile) = profile else { return try runCable() }
        let message = try input.read()
        let modulator = try ModemModulator(profile: profile, sampleRateHz: Double(rate),
                                           peakLevel: Float(pow(10, level / 20)))
        let samples = try modulator.render(message: message, messageID: UInt16.random(in: 0...UInt16.max))
        // validate() has checked the extension.
        let format = AudioFileFormat(path: output) ?? .wav
        try AudioFileWriter.write(path: output, format: format, samples: samples, sampleRateHz: rate)
        let frames = max(1, (message.count + 31) / 32)
        Console.err(String(format: "wrote %@: %d bytes in %d frame(s), profile %@, %.3f s of airtime",
                           output, message.count, frames, profile.rawValue, modulator.airtimeSeconds(messageBytes: message.count)))
    }
}
