import ArgumentParser
import Foundation
import ToneAudioFile
import ToneDSP

struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a message as tones into an audio file (WAV, FLAC, AIFF or Ogg, by its extension).",
        discussion: """
            The message is TEXT, the bytes of --file, or standard input with `-`; \
            up to \(ModemFrame.maximumMessageBytes) bytes, sent as frames of 32 bytes, \
            each with its own preamble and CRC-32. `tonenode decode` reads it back.
            \(Transmission.profilesHelp)
            """)

    @OptionGroup var input: MessageInput

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "The file to write, mono; its extension names the format: .wav (24-bit), .flac (24-bit), "
            + ".aiff (32-bit float), .ogg (Vorbis; lossy, the SNR drops to about 10 dB).", valueName: "path"))
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Sample rate in Hz (ultrasonic profiles need at least 40900).", valueName: "hz"))
    var rate = 48_000

    @Option(help: "Band and speed.")
    var profile: ModemProfile = .ultrasonic

    @Option(parsing: .unconditional, help: ArgumentHelp("Peak level in dBFS (≤ 0).", valueName: "dbfs"))
    var level = -6.0

    func validate() throws {
        guard AudioFileFormat(path: output) != nil else {
            throw ValidationError("--output \(output): name the format with its extension: \(AudioFileFormat.extensionList)")
        }
        guard rate >= 8_000, rate <= 384_000 else { throw ValidationError("--rate must be between 8000 and 384000 Hz") }
        if let problem = profile.parameters.problem(sampleRateHz: Double(rate)) { throw ValidationError(problem) }
        try Transmission.validate(levelDBFS: level, option: "--level")
    }

    func run() throws {
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

/// A runtime failure of encode/decode, printed as one line.
struct ModemCommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
