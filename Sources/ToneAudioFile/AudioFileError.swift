/// A problem with an audio file. Each `description` is one line a person can
/// act on, in plain words; `reason` (reading and writing only) is libsndfile's.
public enum AudioFileError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be opened at all: missing, a directory, not readable.
    case cannotRead(path: String, problem: InputFileProblem)
    /// libsndfile does not recognise the contents as audio.
    case notAudio(path: String)
    /// The header looks like audio but is damaged, or its encoding is not one libsndfile decodes.
    case corrupt(path: String)
    /// The header names no sample rate or no channels.
    case noFormat(path: String)
    /// `channel` (from 0) is not among the file's `channelCount` channels.
    case noSuchChannel(path: String, channelCount: Int, channel: Int)
    /// Reading stopped on an error part way through.
    case readFailed(path: String, reason: String)
    /// The file could not be created or not all of it was written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let problem): "cannot read \(path): \(problem)"
        case .notAudio(let path): "\(path) is not an audio file (libsndfile reads \(Self.readableFormats))"
        case .corrupt(let path): "\(path) is a corrupt or truncated audio file, or uses an encoding libsndfile cannot decode"
        case .noFormat(let path): "cannot read \(path): no sample rate or no channels in its header"
        case .noSuchChannel(let path, let channelCount, let channel):
            "\(path) has \(channelCount) channel(s); channel \(channel + 1) does not exist"
        case .readFailed(let path, let reason): "error while reading \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }

    /// The common formats libsndfile reads, as the "not an audio file" line names them.
    public static let readableFormats = "WAV, AIFF, FLAC, Ogg Vorbis, Opus, MP3, CAF, AU, W64, RF64 and more"
}
