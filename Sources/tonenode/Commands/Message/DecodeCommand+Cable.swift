import Foundation
import ToneAudioFile
import ToneDSP

extension DecodeCommand {
    /// Decodes the file as one cable transmission. Returns false when no sync
    /// chirp is found and no --profile asked for cable (the tone profiles are
    /// tried next); throws one line when a transmission is there but not whole.
    func decodeCable(_ reader: AudioFileReader) throws -> Bool {
        let samples = try reader.readChannel(channel - 1)
        let demodulator = try CableDemodulator(sampleRateHz: reader.sampleRateHz)
        guard let reception = demodulator.receive(samples) else {
            if profile == .cable { throw ModemCommandError("\(file): no cable transmission found") }
            return false
        }
        guard let message = reception.message else { throw ModemCommandError("\(file): \(reception.summary)") }
        if let output {
            try Self.write(message, to: output)
            Console.err("\(file): \(reception.summary); wrote \(output)")
        } else {
            let event = ModemEvent.cable(reception, timeSeconds: Double(reception.startSample) / reader.sampleRateHz)
            MessageOutput(json: json).print(event)
        }
        return true
    }

    /// `bytes` into the file at `path`, replacing it; one line when that fails.
    static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ModemCommandError("cannot write \(path)")
        }
    }
}
