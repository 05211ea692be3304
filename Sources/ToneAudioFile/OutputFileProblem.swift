#if canImport(Glibc)
import Glibc
#endif

/// Why a file given on the command line cannot be written, in plain words
/// (never a library's own text): one home for the check that every option
/// that writes a file (`encode -o`, `--plot`) makes before the command does
/// its work, and that the writers make again when they fail.
public enum OutputFileProblem: Error, Equatable, CustomStringConvertible {
    /// The directory the file would go in does not exist.
    case noSuchDirectory(String)
    /// Something on the way to the file is not a directory.
    case notADirectory(String)
    case isADirectory
    case permissionDenied
    /// Any other reason the system gave (`strerror`).
    case system(String)

    public var description: String {
        switch self {
        case .noSuchDirectory(let directory): "no such directory \(directory)"
        case .notADirectory(let path): "\(path) is not a directory"
        case .isADirectory: "is a directory"
        case .permissionDenied: "permission denied"
        case .system(let reason): reason
        }
    }

    /// Why `path` cannot be created or overwritten, or nil when it can (as
    /// far as can be told without writing: a full disk shows only then).
    public static func check(path: String) -> OutputFileProblem? {
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { return .isADirectory }
            return access(path, W_OK) == 0 ? nil : problem(errno: errno, directory: directory(of: path))
        }
        let directory = directory(of: path)
        guard stat(directory, &status) == 0 else {
            return errno == ENOENT ? .noSuchDirectory(directory) : problem(errno: errno, directory: directory)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return .notADirectory(directory) }
        return access(directory, W_OK) == 0 ? nil : problem(errno: errno, directory: directory)
    }

    /// Throws the one line (`cannot write PATH: …`) when `path` cannot be written.
    public static func requireWritable(path: String) throws(AudioFileError) {
        if let problem = check(path: path) { throw .cannotWrite(path: path, reason: problem.description) }
    }

    /// The directory part of `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func problem(errno code: Int32, directory: String) -> OutputFileProblem {
        switch code {
        case ENOENT: .noSuchDirectory(directory)
        case ENOTDIR: .notADirectory(directory)
        case EACCES, EPERM, EROFS: .permissionDenied
        case EISDIR: .isADirectory
        default: .system(String(cString: strerror(code)))
        }
    }
}
