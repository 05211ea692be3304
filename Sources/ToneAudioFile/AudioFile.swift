import CSndfile
#if canImport(Glibc)
import Glibc
#endif

/// Reads audio files through libsndfile (WAV, FLAC, AIFF, Ogg … at any rate).
public final class AudioFileReader {
    public let path: String
    public let sampleRateHz: Double
    public let channelCount: Int
    /// Frames in the file, as its header says.
    public let frameCount: Int
    private let handle: OpaquePointer

    public init(path: String) throws(AudioFileError) {
        if let problem = InputFileProblem.check(path: path) { throw .cannotRead(path: path, problem: problem) }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            // libsndfile's own texts ("Format not recognised.", "System error.")
            // are not for people; its error code says which plain line to print.
            switch Int(sf_error(nil)) {
            case SF_ERR_UNRECOGNISED_FORMAT: throw .notAudio(path: path)
            case SF_ERR_SYSTEM: throw .cannotRead(path: path, problem: .system("read error"))
            default: throw .corrupt(path: path)
            }
        }
        guard info.samplerate > 0, info.channels > 0 else {
            sf_close(handle)
            throw .noFormat(path: path)
        }
        self.path = path
        self.handle = handle
        sampleRateHz = Double(info.samplerate)
        channelCount = Int(info.channels)
        frameCount = Int(info.frames)
    }

    deinit { sf_close(handle) }

    /// Reads the file block by block and hands one channel's samples to
    /// `body` (do not escape the buffer).
    /// - Parameters:
    ///   - channel: zero-based channel index.
    ///   - blockFrames: frames per call of `body`.
    public func forEachBlock(channel: Int, blockFrames: Int = 8192,
                             _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        guard channel >= 0, channel < channelCount else {
            throw AudioFileError.noSuchChannel(path: path, channelCount: channelCount, channel: channel)
        }
        let interleaved = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames * channelCount)
        let mono = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames)
        defer {
            interleaved.deallocate()
            mono.deallocate()
        }
        while true {
            let got = Int(sf_readf_float(handle, interleaved, sf_count_t(blockFrames)))
            if got <= 0 { break }
            for index in 0..<got { mono[index] = interleaved[index * channelCount + channel] }
            try body(UnsafeBufferPointer(start: mono, count: got))
        }
        let status = sf_error(handle)
        if status != 0 {
            throw AudioFileError.readFailed(path: path, reason: String(cString: sf_strerror(handle)))
        }
    }

    /// The whole channel in memory (tests and small files).
    public func readChannel(_ channel: Int = 0) throws -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(max(0, frameCount))
        try forEachBlock(channel: channel) { out.append(contentsOf: $0) }
        return out
    }
}

/// Writes mono or interleaved audio files.
public enum AudioFileWriter {
    /// A 32-bit float WAV file (the plain kind, as the tests and benchmarks expect).
    public static func writeWAV(path: String, samples: [Float], sampleRateHz: Int,
                                channels: Int = 1) throws(AudioFileError) {
        try write(path: path, samples: samples, sampleRateHz: sampleRateHz, channels: channels,
                  sndfileFormat: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT))
    }

    /// A file in `format` (`encode -o`: the format its extension names).
    public static func write(path: String, format: AudioFileFormat, samples: [Float], sampleRateHz: Int,
                             channels: Int = 1) throws(AudioFileError) {
        try write(path: path, samples: samples, sampleRateHz: sampleRateHz, channels: channels,
                  sndfileFormat: format.sndfileFormat)
    }

    static func write(path: String, samples: [Float], sampleRateHz: Int, channels: Int,
                      sndfileFormat: Int32) throws(AudioFileError) {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRateHz)
        info.channels = Int32(channels)
        info.format = sndfileFormat
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            // Plain words for what the system refused; libsndfile's own text for the rest.
            let code = errno
            let systemRefused = Int(sf_error(nil)) == SF_ERR_SYSTEM && code != 0
            let reason = OutputFileProblem.check(path: path)?.description
                ?? (systemRefused ? String(cString: strerror(code)) : String(cString: sf_strerror(nil)))
            throw .cannotWrite(path: path, reason: reason)
        }
        defer { sf_close(handle) }
        let frames = samples.count / max(1, channels)
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        guard written == frames else {
            throw .cannotWrite(path: path, reason: String(cString: sf_strerror(handle)))
        }
    }
}
