import CSndfile

/// The file formats `encode -o` writes, chosen by the file name's extension.
public enum AudioFileFormat: String, CaseIterable, Sendable {
    /// 24-bit PCM (144 dB of range, far below any modem's noise). sox warns
    /// on libsndfile's float WAVs, plain and extensible alike ("wave header
    /// missing extended part of fmt chunk"), and reads PCM without a word.
    case wav
    /// 24-bit FLAC.
    case flac
    /// 32-bit float AIFF-C.
    case aiff
    /// Ogg Vorbis (lossy: fine for the audible profiles, not for ultrasonic ones).
    case ogg

    /// The extensions each format answers to, lower case.
    public var extensions: [String] {
        switch self {
        case .wav: ["wav", "wave"]
        case .flac: ["flac"]
        case .aiff: ["aif", "aiff", "aifc"]
        case .ogg: ["ogg", "oga"]
        }
    }

    /// The format `path`'s extension names, or nil when it names none of ours.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        guard let format = Self.allCases.first(where: { $0.extensions.contains(ext) }) else { return nil }
        self = format
    }

    /// What a person may write, for error lines: ".wav, .flac, .aiff or .ogg".
    public static let extensionList = ".wav, .flac, .aiff or .ogg"

    var sndfileFormat: Int32 {
        switch self {
        case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24)
        case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        case .aiff: Int32(SF_FORMAT_AIFF | SF_FORMAT_FLOAT)
        case .ogg: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        }
    }
}
