import ToneAudioFile
import ToneCore

/// Why `tonenode patch` could not use its file; one line a person can act on.
enum PatchFileError: Error, CustomStringConvertible {
    /// The file is missing, a directory or not readable.
    case unreadable(path: String, problem: InputFileProblem)
    /// The file is not a patchbay qjackctl would read; `problem` says where.
    case invalid(path: String, problem: PatchbayError)

    var description: String {
        switch self {
        case .unreadable(let path, let problem): "cannot read \(path): \(problem)"
        case .invalid(let path, let problem): "\(path): \(problem.description)"
        }
    }
}
