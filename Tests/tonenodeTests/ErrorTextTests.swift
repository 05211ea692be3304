import Foundation
import Testing
import ToneAudioFile
import ToneCore
import ToneJack
import ToneOSC
@testable import tonenode

#if canImport(Glibc)
import Glibc
#endif

/// The errors a person meets print the same one line as before they had
/// cases of their own (the end-to-end tests and the README quote some).
@Suite("Error lines")
struct ErrorTextTests {
    @Test("OSC and NSM", arguments: [
        (OSCError.noSocket, "OSC: cannot open a UDP socket"),
        (.badAddress(url: "osc.udp://x"), "OSC: bad address 'osc.udp://x'"),
        (.outOfMemory, "OSC: out of memory"),
        (.cannotSend(path: "/a", url: "osc.udp://h:1/", reason: "boom"), "OSC: cannot send /a to osc.udp://h:1/: boom"),
        (.cannotResolve(host: "nowhere", reason: "Name or service not known"),
         "OSC: cannot resolve host 'nowhere': Name or service not known"),
        (.cannotBind(host: "127.0.0.1", port: 9000, errno: EADDRINUSE),
         "OSC: cannot listen on 127.0.0.1 port 9000: Address already in use"),
        (.badServerURL(reason: "'x' is not an osc.udp:// URL"), "NSM_URL 'x' is not an osc.udp:// URL"),
        (.refused(server: "osc.udp://h:1/", reason: "no"), "NSM server osc.udp://h:1/ refused the announce: no"),
        (.malformed(message: "/nsm/client/open \"a\""), "NSM: malformed /nsm/client/open (/nsm/client/open \"a\")"),
        (.noAnswer(server: "osc.udp://h:1/", seconds: 5), "no answer from the NSM server at osc.udp://h:1/ within 5 s"),
        (.noAnswer(server: "osc.udp://h:1/", seconds: 0.5), "no answer from the NSM server at osc.udp://h:1/ within 0.5 s"),
    ])
    func osc(error: OSCError, line: String) {
        #expect(error.description == line)
    }

    @Test("a private jackd", arguments: [
        (PrivateJackServerError.notInstalled, "jackd not found on PATH: install it (Debian: apt-get install jackd2)"),
        (.cannotLaunch(reason: "denied"), "could not start jackd: denied"),
        (.refusedTooManyServers(name: "t1"), "jackd 't1' refused to start: eight JACK servers are running already"),
        (.didNotComeUp(name: "t1", seconds: 10), "jackd 't1' did not come up within 10.0 s"),
        (.endedAtStartUp(name: "t1", how: "exit status 1", lastLine: ""), "jackd 't1' ended while starting (exit status 1)"),
        (.endedAtStartUp(name: "t1", how: "signal 6", lastLine: "Failed to open server"),
         "jackd 't1' ended while starting (signal 6): Failed to open server"),
    ])
    func jackServer(error: PrivateJackServerError, line: String) {
        #expect(error.description == line)
    }

    @Test("audio files", arguments: [
        (AudioFileError.cannotRead(path: "a.wav", problem: .noSuchFile), "cannot read a.wav: no such file"),
        (.cannotRead(path: "d", problem: .isADirectory), "cannot read d: is a directory"),
        (.cannotRead(path: "a.wav", problem: .permissionDenied), "cannot read a.wav: permission denied"),
        (.notAudio(path: "a.txt"),
         "a.txt is not an audio file (libsndfile reads WAV, AIFF, FLAC, Ogg Vorbis, Opus, MP3, CAF, AU, W64, RF64 and more)"),
        (.corrupt(path: "a.wav"),
         "a.wav is a corrupt or truncated audio file, or uses an encoding libsndfile cannot decode"),
        (.noFormat(path: "a.wav"), "cannot read a.wav: no sample rate or no channels in its header"),
        (.noSuchChannel(path: "a.wav", channelCount: 2, channel: 2), "a.wav has 2 channel(s); channel 3 does not exist"),
        (.readFailed(path: "a.wav", reason: "r"), "error while reading a.wav: r"),
        (.cannotWrite(path: "/x/a.wav", reason: "w"), "cannot write /x/a.wav: w"),
    ])
    func audioFile(error: AudioFileError, line: String) {
        #expect(error.description == line)
    }

    @Test("a connection the wrong way round names the ports that fit", arguments: [
        (JackError.wrongDirection(port: "thru:output_1", isOutput: true, other: "tn:out", fitting: ["thru:input_1", "thru:input_2"]),
         "'thru:output_1' is an output: connect 'tn:out' to an input: thru:input_1, thru:input_2"),
        (.wrongDirection(port: "system:playback_1", isOutput: false, other: "tn:in", fitting: ["system:capture_1"]),
         "'system:playback_1' is an input: connect an output to 'tn:in': system:capture_1"),
        (.wrongDirection(port: "a:o", isOutput: true, other: "tn:out", fitting: []),
         "'a:o' is an output: connect 'tn:out' to an input; the server has no input of its type"),
        (.wrongDirection(port: "a:o", isOutput: true, other: "tn:out", fitting: (1...8).map { "b:in_\($0)" }),
         "'a:o' is an output: connect 'tn:out' to an input: b:in_1, b:in_2, b:in_3, b:in_4, b:in_5, … (8 in all, `jack_lsp` lists them)"),
        (.connectionFailed(from: "a:out", to: "b:in", code: -1), "JACK could not connect 'a:out' to 'b:in' (error -1)"),
    ])
    func jackConnection(error: JackError, line: String) {
        #expect(error.description == line)
    }

    @Test("a file that cannot be written: one plain line naming the path")
    func outputFile() {
        let missing = "/nonexistent-\(getpid())/sub/x.wav"
        #expect(OutputFileProblem.check(path: missing) == .noSuchDirectory("/nonexistent-\(getpid())/sub"))
        #expect(OutputFileProblem.check(path: "/etc/passwd/x.svg") == .notADirectory("/etc/passwd"))
        #expect(OutputFileProblem.check(path: "/tmp") == .isADirectory)
        #expect(OutputFileProblem.check(path: NSTemporaryDirectory() + "tn-ok-\(getpid()).wav") == nil)
        do {
            try AudioFileWriter.writeWAV(path: missing, samples: [0], sampleRateHz: 48000)
            Issue.record("wrote into a directory that does not exist")
        } catch {
            #expect(error.description == "cannot write \(missing): no such directory /nonexistent-\(getpid())/sub")
        }
    }

    @Test func patchFile() {
        #expect(PatchFileError.unreadable(path: "p.xml", problem: .noSuchFile).description == "cannot read p.xml: no such file")
        #expect(PatchFileError.invalid(path: "p.xml", problem: .unknownSocket("s")).description
                == "p.xml: a cable names the socket \"s\", which the file does not define")
    }

    @Test("a missing file is one line naming it")
    func missingAudioFile() {
        do {
            _ = try AudioFileReader(path: "/nonexistent/a.wav")
            Issue.record("opened a file that does not exist")
        } catch {
            #expect(error == .cannotRead(path: "/nonexistent/a.wav", problem: .noSuchFile))
        }
    }
}
