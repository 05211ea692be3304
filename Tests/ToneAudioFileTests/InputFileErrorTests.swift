import Foundation
import Testing
import ToneAudioFile

/// Files that cannot be used are named in plain words: what a person meets
/// with `analyze`, `decode`, `patch` and `--file` (never libsndfile's own
/// "Format not recognised."; the patchbay's lines: PatchbayErrorTests).
@Suite("Input file problems in plain words")
struct InputFileErrorTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tonenode-input-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func missingFileAndDirectory() {
        #expect(InputFileProblem.check(path: directory.appendingPathComponent("none.wav").path) == .noSuchFile)
        #expect(InputFileProblem.check(path: "/nonexistent/dir/a.wav") == .noSuchFile)
        #expect(InputFileProblem.check(path: directory.path) == .isADirectory)
        #expect(InputFileProblem.check(path: "/dev/null") == nil)
    }

    @Test func permissionDenied() throws {
        // root reads any file; the check then rightly finds nothing to report.
        let path = try file("locked.wav", [1, 2, 3])
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        #expect(InputFileProblem.check(path: path) == (getuid() == 0 ? nil : .permissionDenied))
    }

    @Test func textIsNotAudio() throws {
        let path = try file("notes.wav", Array("just some text\n".utf8))
        #expect(throws: AudioFileError.notAudio(path: path)) { try AudioFileReader(path: path) }
    }

    @Test func aDirectoryIsNotAudio() throws {
        #expect(throws: AudioFileError.cannotRead(path: directory.path, problem: .isADirectory)) {
            try AudioFileReader(path: directory.path)
        }
    }

    @Test func aWAVHeaderWithBrokenFormatIsCorrupt() throws {
        // RIFF/WAVE with a "fmt " chunk whose size field says 2 bytes: libsndfile knows it as WAV but cannot use it.
        var bytes = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVE".utf8) + Array("fmt ".utf8) + [2, 0, 0, 0, 1, 0]
        bytes += Array("data".utf8) + [0, 0, 0, 0]
        let path = try file("broken.wav", bytes)
        #expect(throws: AudioFileError.corrupt(path: path)) { try AudioFileReader(path: path) }
    }
}
