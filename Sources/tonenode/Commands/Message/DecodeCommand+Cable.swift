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
        let time = Double(reception.startSample) / reader.sampleRateHz
        let snr = reception.bandSNRdB.reduce(0, +) / Double(max(1, reception.bandSNRdB.count))
        let frames = reception.header?.frameCount ?? 0
        if let output {
            try Self.write(message, to: output)
            Console.err("\(file): \(reception.summary); wrote \(output)")
        } else if json {
            var line = JSONLine()
            line.add("time_s", time, .decimals(4))
            if let text = String(validating: message, as: UTF8.self) { line.add("text", text) }
            line.add("base64", Data(message).base64EncodedString())
            line.add("profile", "cable")
            line.add("snr_db", snr, .decimals(4))
            line.add("frames", frames)
            Console.out(line.description)
        } else {
            let body = String(validating: message, as: UTF8.self).map { JSONLine.oneLine($0, forJSON: false) }
                ?? "base64:" + Data(message).base64EncodedString()
            Console.out(String(format: "%10.3f s  cable  snr %5.1f dB  ", time, snr) + body)
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
