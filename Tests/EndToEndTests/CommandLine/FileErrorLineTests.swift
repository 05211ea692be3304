import EndToEndSupport
import Foundation
import Testing

/// Every command that reads a file says what is wrong with it in plain words,
/// in one `tonenode: error:` line, exit 1: no such file, is a directory, not
/// an audio file (naming what libsndfile reads), not XML (naming the line).
@Suite("file problems in plain words, for every command that reads a file")
struct FileErrorLineTests {
    static let directory = NSTemporaryDirectory() + "tn-file-errors-\(getpid())"
    static let textFile = directory + "/notes.txt"

    init() throws {
        try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        try Data("some notes\nnot audio, not xml <\n".utf8).write(to: URL(fileURLWithPath: Self.textFile))
    }

    static let missing = "/nonexistent-\(getpid())/take.wav"

    @Test("one plain line, exit 1", arguments: [
        (["analyze", missing], "tonenode: error: cannot read \(missing): no such file"),
        (["decode", missing], "tonenode: error: cannot read \(missing): no such file"),
        (["patch", missing], "tonenode: error: cannot read \(missing): no such file"),
        (["encode", "--file", missing, "-o", directory + "/x.wav"], "tonenode: error: cannot read \(missing): no such file"),
        (["analyze", directory], "tonenode: error: cannot read \(directory): is a directory"),
        (["decode", directory], "tonenode: error: cannot read \(directory): is a directory"),
        (["patch", directory], "tonenode: error: cannot read \(directory): is a directory"),
        (["send", "--file", directory], "tonenode: error: cannot read \(directory): is a directory"),
        (["analyze", textFile], "tonenode: error: \(textFile) is not an audio file "
            + "(libsndfile reads WAV, AIFF, FLAC, Ogg Vorbis, Opus, MP3, CAF, AU, W64, RF64 and more)"),
        (["decode", textFile], "tonenode: error: \(textFile) is not an audio file "
            + "(libsndfile reads WAV, AIFF, FLAC, Ogg Vorbis, Opus, MP3, CAF, AU, W64, RF64 and more)"),
        (["patch", textFile], "tonenode: error: \(textFile): line 1: not XML, so not a qjackctl patchbay file"),
    ])
    func plainLine(arguments: [String], line: String) throws {
        let result = try runCommand(arguments, environment: ["JACK_DEFAULT_SERVER": "tn-none-\(getpid())"],
                                    timeoutSeconds: 20)
        #expect(result.status == 1)
        #expect(result.stderrLines == [line])
        #expect(result.stdout.isEmpty)
    }
}
