import Foundation

/// A file a child process writes (its stdout or stderr), read as it grows:
/// each read takes only the bytes appended since the last one, so polling a
/// long run (an hour of reports) stays cheap. A file, not a pipe: the child
/// never blocks on a reader, and nothing waits for an end of file that a
/// grandchild holding the descriptor could delay.
///
/// Test thread only (the owning `LiveCommand` is not shared between threads).
final class CapturedOutput {
    let path: String
    private let reader: FileHandle?
    /// Every complete line so far (without its "\n"), empty lines included.
    private var completeLines: [String] = []
    /// Bytes after the last "\n": a line still being written. Lines are cut
    /// at "\n" bytes only, which never occur inside a UTF-8 sequence.
    private var pending: [UInt8] = []

    init(prefix: String) {
        path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        reader = FileHandle(forReadingAtPath: path)
    }

    deinit {
        try? reader?.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A handle for the child to write through.
    func writer() -> FileHandle? { FileHandle(forWritingAtPath: path) }

    var lines: [String] {
        refresh()
        return completeLines
    }

    /// Everything written so far, the unfinished last line included.
    var text: String {
        refresh()
        let complete = completeLines.isEmpty ? "" : completeLines.joined(separator: "\n") + "\n"
        return complete + String(decoding: pending, as: UTF8.self)
    }

    private func refresh() {
        guard let reader, let data = try? reader.readToEnd(), !data.isEmpty else { return }
        pending += data
        guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { return }
        let complete = pending[..<lastNewline]
        completeLines += complete.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        pending.removeSubrange(...lastNewline)
    }
}
