/// A problem with an audio file. Each `description` is one line a person can
/// act on; `reason` is libsndfile's own wording.
public enum AudioFileError: Error, Equatable, CustomStringConvertible {
    /// libsndfile could not open the file (missing, unreadable, not audio).
    case cannotRead(path: String, reason: String)
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
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .noFormat(let path): "cannot read \(path): no sample rate or no channels in its header"
        case .noSuchChannel(let path, let channelCount, let channel):
            "\(path) has \(channelCount) channel(s); channel \(channel + 1) does not exist"
        case .readFailed(let path, let reason): "error while reading \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
