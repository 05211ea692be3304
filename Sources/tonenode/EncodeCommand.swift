import ArgumentParser
import Foundation
import ToneAudioFile
import ToneDSP

struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a message as tones into a WAV file (32-bit float, mono).",
        discussion: """
            The message is TEXT, the bytes of --file, or standard input with `-`; \
            up to \(ModemFrame.maximumMessageBytes) bytes, sent as frames of 32 bytes, \
            each with its own preamble and CRC-32. `tonenode decode` reads it back.
            Profiles: ultrasonic (18–20 kHz, ~42 B/s, default), ultrasonic-fast \
            (18–20 kHz, ~113 B/s), audible (1–5 kHz, ~59 B/s), audible-fast (1–5 kHz, ~175 B/s).
            """)

    @Argument(help: ArgumentHelp("The message text, or - to read standard input.", valueName: "text"))
    var text: String?

    @Option(name: .long, help: ArgumentHelp("Send the bytes of this file instead of TEXT.", valueName: "path"))
    var file: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The WAV file to write.", valueName: "path"))
    var output: String

    @Option(help: ArgumentHelp("Sample rate in Hz (ultrasonic profiles need at least 40900).", valueName: "hz"))
    var rate = 48_000

    @Option(help: "Band and speed.")
    var profile: ModemProfile = .ultrasonic

    @Option(help: ArgumentHelp("Peak level in dBFS (≤ 0).", valueName: "dbfs"))
    var level = -6.0

    func validate() throws {
        if (text == nil) == (file == nil) {
            throw ValidationError("give the message as TEXT, as - for standard input, or with --file (exactly one)")
        }
        guard rate >= 8_000, rate <= 384_000 else { throw ValidationError("--rate must be between 8000 and 384000 Hz") }
        if let problem = profile.parameters.problem(sampleRateHz: Double(rate)) { throw ValidationError(problem) }
        guard level.isFinite, level <= 0, level >= -60 else { throw ValidationError("--level must be between -60 and 0 dBFS") }
    }

    func run() throws {
        let message: [UInt8]
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ModemCommandError("cannot read \(file)")
            }
            message = Array(data)
        } else if text == "-" {
            message = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            message = Array((text ?? "").utf8)
        }
        guard message.count <= ModemFrame.maximumMessageBytes else {
            throw ModemCommandError("the message has \(message.count) bytes; at most \(ModemFrame.maximumMessageBytes) fit")
        }
        let modulator = try ModemModulator(profile: profile, sampleRateHz: Double(rate),
                                           peakLevel: Float(pow(10, level / 20)))
        let samples = try modulator.render(message: message, messageID: UInt16.random(in: 0...UInt16.max))
        try AudioFileWriter.writeWAV(path: output, samples: samples, sampleRateHz: rate)
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
