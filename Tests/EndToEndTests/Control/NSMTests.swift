import EndToEndSupport
import Foundation
import Synchronization
import Testing
import ToneCore
import ToneOSC

/// A stand-in NSM server (there is no nsmd in Debian): an OSC endpoint that
/// sees what the client sends and answers as nsmd would.
// @unchecked Sendable: each test hands it to one thread at a time.
final class NSMServerPeer: @unchecked Sendable {
    let endpoint: OSCEndpoint
    /// Where the client sent its announce from; answers go there.
    var clientURL: String?

    init() throws { endpoint = try OSCEndpoint() }

    /// `NSM_URL` for the client (numeric host: no name lookup in the test).
    var url: String { "osc.udp://127.0.0.1:\(endpoint.port)/" }

    /// The next message with `path`, skipping others; nil after `timeoutSeconds`.
    func next(_ path: String, timeoutSeconds: Double = 10) -> OSCMessage? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            guard let message = endpoint.receive(timeoutMilliseconds: 100) else { continue }
            if message.path == "/nsm/server/announce" { clientURL = message.senderURL }
            if message.path == path { return message }
        }
        return nil
    }

    func send(_ path: String, _ arguments: [OSCValue]) throws {
        let to = try #require(clientURL, "no announce seen yet")
        try endpoint.send(to: to, path: path, arguments)
    }

    /// Takes the announce, answers it, opens the session; returns the announce.
    func openSession(path: String, clientID: String) throws -> OSCMessage? {
        guard let announce = next("/nsm/server/announce") else { return nil }
        try send("/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("test-nsm"), .string(":server-control:")])
        try send("/nsm/client/open", [.string(path), .string("ToneNode"), .string(clientID)])
        return announce
    }
}

@Suite("NSM without a session")
struct NSMStartTests {
    @Test("a malformed NSM_URL is one error line and status 1", arguments: [
        "garbage", "osc.udp://127.0.0.1/", "osc.udp://127.0.0.1:99999/", "osc.tcp://127.0.0.1:5000/", "",
    ])
    func malformedURL(url: String) throws {
        let result = try runCommand(["run", "-s", "no-such-server"], environment: ["NSM_URL": url])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("tonenode: error: NSM_URL "),
                "stderr: \(result.stderr)")
    }

    @Test("a silent NSM server: after 5 s one line, and it goes on without a session")
    func silentServer() throws {
        let peer = try NSMServerPeer()  // never answers
        let started = Date()
        let result = try runCommand(["run", "-s", "no-such-server"], environment: ["NSM_URL": peer.url])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.stderrLines.first == "tonenode: NSM: no answer from the NSM server at \(peer.url) within 5 s; running without a session",
                "stderr: \(result.stderr)")
        #expect(elapsed >= 5 && elapsed < 20)
        // Then, without a session, the usual error for a missing JACK server.
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 2 && result.stderrLines[1].hasPrefix("tonenode: error:"))
    }

    @Test("SIGTERM while waiting for the session to open: a clean stop (status 0, nothing on stderr), at once")
    func signalWhileWaiting() throws {
        let peer = try NSMServerPeer()  // takes the announce, never opens
        let live = try LiveCommand(["run", "-s", "no-such-server"], environment: ["NSM_URL": peer.url])
        #expect(peer.next("/nsm/server/announce") != nil)
        let sent = Date()
        live.signal(SIGTERM)
        let ended = live.exitStatus(timeoutSeconds: 3)
        #expect(ended?.status == 0 && ended?.reason == .exit, "stderr: \(live.stderr)")
        #expect(Date().timeIntervalSince(sent) < 2)
        #expect(live.stderr.isEmpty, "stderr: \(live.stderr)")
    }

    @Test("an /error answer to the announce: one line, and it goes on without a session")
    func refusedAnnounce() throws {
        let peer = try NSMServerPeer()
        let thread = Thread {
            guard peer.next("/nsm/server/announce") != nil else { return }
            try? peer.send("/error", [.string("/nsm/server/announce"), .int(-2), .string("incompatible API")])
        }
        thread.start()
        let result = try runCommand(["run", "-s", "no-such-server"], environment: ["NSM_URL": peer.url])
        #expect(result.stderrLines.first == "tonenode: NSM: NSM server \(peer.url) refused the announce: incompatible API; running without a session",
                "stderr: \(result.stderr)")
        #expect(result.status == 1)
    }
}

@Suite("NSM: a broken session file")
struct NSMBadFileTests {
    @Test("an unreadable or out-of-range session file (hop above the FFT size too): /error to open, one error line, status 1", arguments: [
        "not json", #"{"frequencyHz": 1000}"#,
        #"{"frequencyHz":-5,"levelDBFS":-18,"muted":false,"fftSize":4096,"hopFrames":512,"lowHz":20,"snrMinDB":-20,"maxTones":1,"a4Hz":440,"channels":1}"#,
        #"{"frequencyHz":1000,"levelDBFS":-18,"muted":false,"fftSize":4096,"hopFrames":512,"lowHz":20,"snrMinDB":-20,"maxTones":1,"a4Hz":1000,"channels":1}"#,
        #"{"frequencyHz":1000,"levelDBFS":-18,"muted":false,"fftSize":4096,"hopFrames":8192,"lowHz":20,"snrMinDB":-20,"maxTones":1,"a4Hz":440,"channels":1}"#,
    ])
    func badFile(contents: String) throws {
        let directory = NSTemporaryDirectory() + "tn-nsm-bad-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sessionPath = directory + "/ToneNode.nBAD"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: sessionPath + ".json"))
        let peer = try NSMServerPeer()
        let answer = Mutex<OSCMessage?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            guard (try? peer.openSession(path: sessionPath, clientID: "nBAD")) != nil else { return }
            let reply = peer.next("/error")
            answer.withLock { $0 = reply }
        }
        thread.start()
        let result = try runCommand(["run", "-s", "no-such-server"], environment: ["NSM_URL": peer.url])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("tonenode: error: NSM: cannot read session settings"),
                "stderr: \(result.stderr)")
        #expect(done.wait(timeout: .now() + 15) == .success)
        let error = answer.withLock { $0 }
        #expect(error?.arguments.first == .string("/nsm/client/open") && error?.arguments.dropFirst().first == .int(-9),
                "\(String(describing: error))")
    }
}

extension JackServerTests {
    @Suite("NSM session")
    struct NSMSessionTests {
        @Test("announces, takes the client id as its JACK name, saves the live settings and restores them")
        func saveAndRestore() throws {
            let server = try startServer()
            defer { server.stop() }
            let directory = NSTemporaryDirectory() + "tn-nsm-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let sessionPath = directory + "/ToneNode.nTEST"
            let clientID = "nTEST"
            let arguments = ["run", "-s", server.name, "--json", "--hop", "2048", "--connect-out", "\(clientID):in"]

            let peer = try NSMServerPeer()
            var live: LiveCommand? = try LiveCommand(arguments, environment: ["NSM_URL": peer.url], input: .pipe)
            let announce = try #require(try peer.openSession(path: sessionPath, clientID: clientID))
            #expect(announce.arguments.count == 6)
            #expect(announce.arguments.prefix(5) == [.string("ToneNode"), .string(":dirty:"), .string("tonenode"), .int(1), .int(2)])
            #expect(announce.arguments.last == .int(live!.processIdentifier))
            let opened = try #require(peer.next("/reply"))
            #expect(opened.arguments == [.string("/nsm/client/open"), .string("OK")])
            try waitForPort("\(clientID):out", server: server.name)
            #expect(reads(live!, 1000), "stderr: \(live!.stderr)")

            let mark = lastReportTime(live!)
            live!.send("freq 523.25\nlevel -9")
            #expect(reads(live!, 523.25, dbfs: -9, after: mark), "stderr: \(live!.stderr)")
            #expect(peer.next("/nsm/client/is_dirty") != nil)

            try peer.send("/nsm/client/save", [])
            let saved = try #require(peer.next("/reply"))
            #expect(saved.arguments == [.string("/nsm/client/save"), .string("OK")])
            let file = try #require(try SessionSettings.load(sessionPath: sessionPath))
            #expect(file.frequencyHz == 523.25 && file.levelDBFS == -9 && !file.muted)
            #expect(!FileManager.default.fileExists(atPath: directory + "/ToneNode.nTEST.json.tmp"))

            // Quit (SIGTERM, as the session manager does) and start again in the same session.
            live!.signal(SIGTERM)
            #expect(live!.exitStatus(timeoutSeconds: 5)?.status == 0)
            live = nil
            try waitForPort("\(clientID):out", server: server.name, toExist: false)
            let peer2 = try NSMServerPeer()
            let again = try LiveCommand(arguments, environment: ["NSM_URL": peer2.url])
            _ = try #require(try peer2.openSession(path: sessionPath, clientID: clientID))
            #expect(peer2.next("/reply")?.arguments == [.string("/nsm/client/open"), .string("OK")])
            #expect(reads(again, 523.25, dbfs: -9), "stderr: \(again.stderr)")
        }

        @Test("a save that cannot be written is an /error with the reason; the node keeps running")
        func saveFails() throws {
            let server = try startServer()
            defer { server.stop() }
            // A regular file where the session directory should be.
            let blocker = NSTemporaryDirectory() + "tn-nsm-file-\(UUID().uuidString)"
            #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
            defer { try? FileManager.default.removeItem(atPath: blocker) }
            let peer = try NSMServerPeer()
            let live = try LiveCommand(["run", "-s", server.name, "--json", "--hop", "2048", "--connect-out", "nFAIL:in"],
                                       environment: ["NSM_URL": peer.url])
            _ = try #require(try peer.openSession(path: blocker + "/session/ToneNode.nFAIL", clientID: "nFAIL"))
            #expect(peer.next("/reply")?.arguments == [.string("/nsm/client/open"), .string("OK")])
            #expect(reads(live, 1000), "stderr: \(live.stderr)")
            try peer.send("/nsm/client/save", [])
            let failed = try #require(peer.next("/error"))
            #expect(failed.arguments.count == 3)
            #expect(failed.arguments.first == .string("/nsm/client/save") && failed.arguments[1] == .int(-1))
            #expect(failed.arguments.last?.stringValue?.hasPrefix("cannot save session settings") == true, "\(failed)")
            #expect(live.waitUntil(timeoutSeconds: 5) { $0.stderr.contains("tonenode: error: NSM: cannot save session settings") },
                    "stderr: \(live.stderr)")
            let mark = lastReportTime(live)
            #expect(reads(live, 1000, after: mark))
        }
    }
}
