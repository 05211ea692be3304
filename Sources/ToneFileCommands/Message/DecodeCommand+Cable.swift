import Foundation
import ToneAudioFile
import ToneDSP
import ToneModem
import ToneCommandLine

extension DecodeCommand {
    /// Decodes the file's cable transmissions: one message (`encode --profile
    /// cable`), or a recording of `send`'s segments put back together (a
    /// session's probe, answers and closing word passed over). Returns
    /// false when no sync chirp is found and no --profile asked for cable (the
    /// tone profiles are tried next); throws one line when a transmission is
    /// there but nothing whole: nothing is written then.
    func decodeCable(_ reader: AudioFileReader) throws -> Bool {
        let samples = try reader.readChannel(channel - 1)
        let demodulator = try CableDemodulator(sampleRateHz: reader.sampleRateHz)
        let receptions = demodulator.receiveAll(samples)
        guard !receptions.isEmpty else {
            if profile == .cable {
                throw ModemCommandError("\(file): no cable transmission found" + Self.toneHint(samples, sampleRateHz: reader.sampleRateHz))
            }
            return false
        }
        var transfer = CableTransferOutput(json: json, progress: false)
        for reception in receptions {
            guard let delivery = transfer.take(reception, timeSeconds: Double(reception.startSample) / reader.sampleRateHz)
            else { continue }
            if let output {
                try Self.write(delivery.bytes, to: output)
                Console.err("\(file): \(delivery.summary); wrote \(output)")
            } else {
                Console.out(delivery.line)
            }
            return true
        }
        if transfer.assembler.transferID != nil, let line = transfer.incompleteSummary {
            throw ModemCommandError("\(file): " + line + Self.cutNote(receptions))
        }
        if transfer.controlTransmissions == receptions.count {
            throw ModemCommandError("\(file): \(receptions.count) cable transmission(s), all a session's control "
                                    + "(probe, poll, answer, closing word): no message, no file bytes")
        }
        // No segment known: the first transmission's own line (a chirp whose header could not be read only when no header was).
        let first = receptions.first { $0.header != nil && CableSessionMessage.control(in: $0) == nil } ?? receptions[0]
        let others = receptions.count > 1 ? " (the first of \(receptions.count) transmissions, none whole)" : ""
        throw ModemCommandError("\(file): " + first.summary + others)
    }

    /// Where the recording ended inside a transmission, for the transfer's line.
    private static func cutNote(_ receptions: [CableReception]) -> String {
        guard let last = receptions.last, last.truncatedFrames > 0 || last.endsBeforeHeader else { return "" }
        return last.endsBeforeHeader ? " (the recording ends before a segment's header)"
            : " (the recording ends inside a segment: \(last.truncatedFrames) frame(s) cut off)"
    }

    /// "; it holds … (--profile …)" when a tone-profile message is in `samples`, else "".
    static func toneHint(_ samples: [Float], sampleRateHz: Double) -> String {
        guard let receiver = try? ModemReceiver(sampleRateHz: sampleRateHz) else { return "" }
        let events = samples.withUnsafeBufferPointer { receiver.push($0) } + receiver.finish()
        let profiles = events.compactMap { event -> ModemProfile? in
            switch event {
            case .message(let message): message.profile
            case .incomplete(let message): message.profile
            case .cable: nil
            }
        }
        guard let profile = profiles.first else { return "" }
        return "; it holds a message of profile \(profile.rawValue) (--profile \(profile.rawValue))"
    }

    /// "; it holds a cable transmission (--profile cable)" when one is in the file at `path`, else "".
    static func cableHint(path: String, channel: Int) -> String {
        guard let reader = try? AudioFileReader(path: path), let samples = try? reader.readChannel(channel - 1),
              let demodulator = try? CableDemodulator(sampleRateHz: reader.sampleRateHz),
              demodulator.receive(samples) != nil else { return "" }
        return "; it holds a cable transmission (--profile cable)"
    }

    /// `bytes` into the file at `path`, replacing it; one line when that fails.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ModemCommandError("cannot write \(path)")
        }
    }
}
