import Foundation
import ToneAudioFile
import ToneDSP
import ToneModem
import ToneCommandLine

extension EncodeCommand {
    /// `encode --profile cable`: the whole message as one cable transmission, any length.
    func runCable() throws {
        let message = try input.read(capped: false)
        let modulator = try CableModulator(sampleRateHz: Double(rate), peakLevel: Float(pow(10, level / 20)))
        let samples = try modulator.render(message: message)
        // validate() has checked the extension.
        let format = AudioFileFormat(path: output) ?? .wav
        try AudioFileWriter.write(path: output, format: format, samples: samples, sampleRateHz: rate)
        let seconds = try modulator.seconds(messageBytes: message.count)
        let frames = (message.count + (try modulator.payloadBytesPerFrame()) - 1) / (try modulator.payloadBytesPerFrame())
        Console.err(String(format: "wrote %@: %d bytes in %d frame(s), profile cable, %.3f s, %.1f kbit/s",
                           output, message.count, frames, seconds, Double(8 * message.count) / seconds / 1000))
    }
}
