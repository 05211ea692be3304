import ArgumentParser
import Foundation
import ToneDSP
import ToneModem
import ToneEngine
import ToneCommandLine
import ToneFileCommands

extension SendCommand {
    /// `send --profile cable`: the bytes, any length, as a stream of segments
    /// (`CableSegment`), each rendered while the one before plays.
    func sendCable(_ message: [UInt8], on node: Node) async throws {
        let rate = node.sampleRateHz
        let (modulator, payload, dataBytes) = try ModemCommandError.cableSetup {
            let modulator = try CableModulator(sampleRateHz: rate, peakLevel: Float(pow(10, level / 20)))
            return (modulator, try modulator.payloadBytesPerFrame(), try modulator.segmentDataBytes())
        }
        let transferID = UInt32.random(in: 0...UInt32.max)
        let ranges = CableSegment.ranges(totalBytes: message.count, dataBytes: dataBytes)
        var index = 0
        var samples = 0
        let sent = try await node.playback.play(parts: {
            guard index < ranges.count else { return nil }
            let segment = CableSegment(transferID: transferID, offset: ranges[index].lowerBound, totalBytes: message.count,
                                       data: message[ranges[index]])
            index += 1
            let part = try modulator.render(message: segment.encoded)
            samples += part.count
            return part
        }, shouldStop: { SignalWatcher.isStopRequested })
        guard sent else {
            if SignalWatcher.isStopRequested { throw ExitCode.failure }    // ends with 128 + signal
            throw ModemCommandError("the JACK server stopped taking samples before the message had gone out")
        }
        let seconds = Double(samples) / rate
        let frames = ranges.reduce(0) { $0 + ($1.count + CableSegment.overheadBytes + payload - 1) / payload }
        Console.err(String(format: "sent %d bytes in %d segment(s), %d frame(s) on %@, profile cable, %.3f s at %.0f Hz, %.1f kbit/s",
                           message.count, ranges.count, frames, node.outputPortName, seconds, rate,
                           Double(8 * message.count) / seconds / 1000))
    }
}
