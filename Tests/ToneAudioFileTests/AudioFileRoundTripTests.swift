import CSndfile
import Foundation
import Testing
@testable import ToneAudioFile

/// WAV files written through `AudioFileWriter` and read back through
/// `AudioFileReader` (libsndfile both ways): the header's rate, channels and
/// frames, and every sample of every channel within the format's quantisation.
@Suite("WAV round trip through libsndfile")
struct AudioFileRoundTripTests {
    /// How a file is written, and how far a sample may come back from what went in.
    struct Encoding: CustomTestStringConvertible, Sendable {
        let name: String
        let sndfileFormat: Int32
        /// The largest difference allowed: 0 for float; for PCM, libsndfile
        /// scales by 2^(bits-1) - 1 on writing and 2^-(bits-1) on reading,
        /// and rounds: within 1.5 steps of 2^-(bits-1) for samples in -1...1.
        let toleranceAmplitude: Float
        var testDescription: String { name }
    }

    static let encodings = [
        Encoding(name: "32-bit float", sndfileFormat: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), toleranceAmplitude: 0),
        Encoding(name: "16-bit PCM", sndfileFormat: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16),
                 toleranceAmplitude: 1.5 / 32768),
        Encoding(name: "24-bit PCM", sndfileFormat: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24),
                 toleranceAmplitude: 1.5 / 8_388_608),
    ]

    /// Two channels, interleaved: a 997 Hz sine at 0.9 and a 1201 Hz cosine at
    /// 0.5, ending with the extremes each format must still carry.
    static func stereo(frames: Int, sampleRateHz: Int) -> (left: [Float], right: [Float]) {
        let left = (0..<frames).map { Float(0.9 * sin(2 * Double.pi * 997 * Double($0) / Double(sampleRateHz))) }
        let right = (0..<frames).map { Float(0.5 * cos(2 * Double.pi * 1201 * Double($0) / Double(sampleRateHz))) }
        return (left + [1, -1, 0], right + [-1, 1, 1e-3])
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("tonenode-roundtrip-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name).wav").path
    }

    @Test("every sample comes back within the format's quantisation", arguments: encodings)
    func roundTrip(encoding: Encoding) throws {
        let rate = 44_100
        let (left, right) = Self.stereo(frames: 10_000, sampleRateHz: rate)
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        let path = Self.temporaryPath(encoding.name.replacingOccurrences(of: " ", with: "-"))
        defer { unlink(path) }
        try AudioFileWriter.write(path: path, samples: interleaved, sampleRateHz: rate, channels: 2,
                                  sndfileFormat: encoding.sndfileFormat)

        let reader = try AudioFileReader(path: path)
        #expect(reader.sampleRateHz == Double(rate))
        #expect(reader.channelCount == 2)
        #expect(reader.frameCount == left.count)
        for (channel, written) in [left, right].enumerated() {
            // A reader reads the file once (no seek back): one per channel.
            let read = try AudioFileReader(path: path).readChannel(channel)
            try #require(read.count == written.count, "channel \(channel)")
            let worst = zip(read, written).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= encoding.toleranceAmplitude, "channel \(channel): worst \(worst)")
        }
    }

    @Test("writeWAV writes 32-bit float, and encode's .wav 24-bit PCM")
    func publicWriters() throws {
        let samples: [Float] = (0..<4800).map { Float(0.25 * sin(Double($0) * 0.05)) }
        let floatPath = Self.temporaryPath("float"), pcmPath = Self.temporaryPath("pcm24")
        defer {
            unlink(floatPath)
            unlink(pcmPath)
        }
        try AudioFileWriter.writeWAV(path: floatPath, samples: samples, sampleRateHz: 48_000)
        try AudioFileWriter.write(path: pcmPath, format: .wav, samples: samples, sampleRateHz: 48_000)
        #expect(try AudioFileReader(path: floatPath).readChannel() == samples)
        let pcm = try AudioFileReader(path: pcmPath).readChannel()
        #expect(pcm.count == samples.count)
        #expect(zip(pcm, samples).allSatisfy { abs($0 - $1) <= 1.5 / 8_388_608 })
    }

    @Test("a channel the file does not have is an error naming the count")
    func noSuchChannel() throws {
        let path = Self.temporaryPath("mono")
        defer { unlink(path) }
        try AudioFileWriter.writeWAV(path: path, samples: [0, 0.5, -0.5], sampleRateHz: 8000)
        let reader = try AudioFileReader(path: path)
        #expect(throws: AudioFileError.noSuchChannel(path: path, channelCount: 1, channel: 1)) {
            try reader.readChannel(1)
        }
    }
}
