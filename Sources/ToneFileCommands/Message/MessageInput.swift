import ArgumentParser
import Foundation
import ToneAudioFile
import ToneCore
import ToneDSP
import ToneModem

/// Where a message to send comes from: TEXT, `-` for standard input, or
/// `--file`. Shared by `encode` and `send`.
public struct MessageInput: ParsableArguments {
    @Argument(help: ArgumentHelp("The message text, or - to read standard input.", valueName: "text"))
    public var text: String?

    @Option(name: .long, help: ArgumentHelp("Send the bytes of this file instead of TEXT.", valueName: "path"))
    public var file: String?

    public init() {}

    public func validate() throws {
        if (text == nil) == (file == nil) {
            throw ValidationError("give the message as TEXT, as - for standard input, or with --file (exactly one)")
        }
        if text == "" { throw ValidationError("the message TEXT is empty; nothing to send") }
    }

    /// The message's bytes; throws one line when they cannot be read, are
    /// empty, or (`capped`: tone profiles) are more than a message holds.
    public func read(capped: Bool = true) throws -> [UInt8] {
        let message: [UInt8]
        if let file {
            if let problem = InputFileProblem.check(path: file) { throw ModemCommandError("cannot read \(file): \(problem)") }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ModemCommandError("cannot read \(file): read error")
            }
            message = Array(data)
        } else if text == "-" {
            // readToEnd throws on a read error where readDataToEndOfFile traps.
            do {
                message = Array(try FileHandle.standardInput.readToEnd() ?? Data())
            } catch {
                throw ModemCommandError("cannot read standard input: \(error.localizedDescription)")
            }
        } else {
            message = Array((text ?? "").utf8)
        }
        switch NodeSettings.messageProblem(byteCount: capped || message.isEmpty ? message.count : 1)?.rule {
        case .messageEmpty?: throw ModemCommandError("the message is empty (\(file ?? "standard input")); nothing to send")
        case let rule?: throw ModemCommandError(SettingsProblem(.message, rule).reason)
        case nil: return message
        }
    }
}

/// Peak level and profile of a transmission.
public enum Transmission {
    public static let profilesHelp = """
        Profiles: ultrasonic (18–20 kHz, ~42 B/s, default), ultrasonic-fast \
        (18–20 kHz, ~106 B/s, undoes a room), audible (1–5 kHz, ~59 B/s), audible-fast (1–5 kHz, ~105 B/s).
        """

    /// The message as samples at `sampleRateHz`: a tone profile's frame with a
    /// fresh message ID, or one cable transmission (any length).
    public static func render(_ message: [UInt8], profile: MessageFileProfile, sampleRateHz: Double,
                       levelDBFS: Double) throws -> [Float] {
        switch profile {
        case .tones(let tones):
            return try render(message, profile: tones, sampleRateHz: sampleRateHz, levelDBFS: levelDBFS)
        case .cable:
            // The modulator refuses a rate the cable cannot use, in CableGeometry's sentence.
            return try ModemCommandError.cableSetup {
                try CableModulator(sampleRateHz: sampleRateHz, peakLevel: Float(pow(10, levelDBFS / 20))).render(message: message)
            }
        }
    }

    /// The message as samples at `sampleRateHz`, with a fresh message ID.
    public static func render(_ message: [UInt8], profile: ModemProfile, sampleRateHz: Double,
                       levelDBFS: Double) throws -> [Float] {
        if let problem = profile.parameters.problem(sampleRateHz: sampleRateHz) { throw ModemCommandError(problem) }
        let modulator = try ModemModulator(profile: profile, sampleRateHz: sampleRateHz,
                                           peakLevel: Float(pow(10, levelDBFS / 20)))
        return try modulator.render(message: message, messageID: UInt16.random(in: 0...UInt16.max))
    }
}
