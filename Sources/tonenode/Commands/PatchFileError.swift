import ToneCore

/// Why `tonenode patch` could not use its file; one line a person can act on.
enum PatchFileError: Error, CustomStringConvertible {
    /// The file is missing or unreadable.
    case unreadable(path: String)
    /// The file is not a patchbay qjackctl would read; `problem` says where.
    case invalid(path: String, problem: PatchbayError)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .invalid(let path, let problem): "\(path): \(problem.description)"
        }
    }
}
