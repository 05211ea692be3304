#if canImport(Glibc)
import Glibc
#endif

/// Why a file given on the command line cannot be read, in plain words
/// (never a library's own text). One home for the check that `analyze`,
/// `decode`, `patch` and `--file` all make before they open the file.
public enum InputFileProblem: Error, Equatable, CustomStringConvertible {
    case noSuchFile
    case isADirectory
    case permissionDenied
    /// Exists but is not a regular file (a device, a socket …).
    case notAFile
    /// Any other reason the system gave (`strerror`).
    case system(String)

    public var description: String {
        switch self {
        case .noSuchFile: "no such file"
        case .isADirectory: "is a directory"
        case .permissionDenied: "permission denied"
        case .notAFile: "not a regular file"
        case .system(let reason): reason
        }
    }

    /// Why `path` cannot be opened for reading, or nil when it can. Pipes and
    /// character devices such as `/dev/stdin` count as readable.
    public static func check(path: String) -> InputFileProblem? {
        var status = stat()
        guard stat(path, &status) == 0 else { return problem(errno: errno) }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { return .isADirectory }
        guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFCHR else { return .notAFile }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return problem(errno: errno) }
        close(descriptor)
        return nil
    }

    static func problem(errno code: Int32) -> InputFileProblem {
        switch code {
        case ENOENT, ENOTDIR: .noSuchFile
        case EACCES, EPERM: .permissionDenied
        case EISDIR: .isADirectory
        default: .system(String(cString: strerror(code)))
        }
    }
}
