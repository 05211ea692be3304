import EndToEndSupport
import Foundation
import Synchronization
import Testing
import ToneCore
import ToneDSP
import ToneOSC

extension JackServerTests {
    /// What a session keeps, end to end: every option that shapes the node
    /// (not only tone, level and mute), and rules checked before the node opens.
    @Suite("NSM session settings")
    struct NSMSessionSettingsTests {
        static func sessionDirectory() -> String { NSTemporaryDirectory() + "tn-nsm-settings-\(UUID().uuidString)" }

        @Test("a session file with a hop above the FFT size: /error to open, one error line, status 1 (it trapped before)")
        func hopAboveFFTSize() throws {
            let server = try startServer()
            defer { server.stop() }
            let directory = Self.sessionDirectory()
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let sessionPath = directory + "/ToneNode.nHOP"
            let file = #"{"frequencyHz":1000,"levelDBFS":-18,"muted":false,"fftSize":4096,"hopFrames":8192,"lowHz":20,"snrMinDB":-20,"maxTones":1,"a4Hz":440,"channels":1}"#
            try Data(file.utf8).write(to: URL(fileURLWithPath: sessionPath + ".json"))
            let peer = try NSMServerPeer()
            let answer = Mutex<OSCMessage?>(nil)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                defer { done.signal() }
                guard (try? peer.openSession(path: sessionPath, clientID: "nHOP")) != nil else { return }
                let reply = peer.next("/error")
                answer.withLock { $0 = reply }
            }
            thread.start()
            let result = try runCommand(["run", "-s", server.name, "--duration", "2"], environment: ["NSM_URL": peer.url])
            #expect(result.status == 1, "stderr: \(result.stderr)")
            #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
            #expect(result.stderrLines.first?.hasPrefix("tonenode: error: NSM: cannot read session settings") == true)
            #expect(result.stderr.contains("hopFrames 8192 must be between 1 and the FFT size 4096"), "stderr: \(result.stderr)")
            #expect(done.wait(timeout: .now() + 15) == .success)
            let error = answer.withLock { $0 }
            #expect(error?.arguments.dropFirst().first == .int(-9), "\(String(describing: error))")
        }

        @Test("mode, pitch range, bend range and A4 are saved and restored (the restarted node is given none of them)")
        func modeAndRangesRoundTrip() throws {
            let server = try startServer()
            defer { server.stop() }
            let directory = Self.sessionDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let sessionPath = directory + "/ToneNode.nMODE"
            let clientID = "nMODE"
            let plain = ["run", "-s", server.name, "--json", "--hop", "2048", "--connect-out", "\(clientID):in"]
            let shaped = plain + ["--mode", "pitch", "--band", "100:1500", "--bend-range", "7", "--a4", "442"]

            // 1. A node started with the options saves them.
            let peer = try NSMServerPeer()
            var live: LiveCommand? = try LiveCommand(shaped, environment: ["NSM_URL": peer.url])
            _ = try #require(try peer.openSession(path: sessionPath, clientID: clientID))
            #expect(peer.next("/reply")?.arguments == [.string("/nsm/client/open"), .string("OK")])
            #expect(live!.waitUntil(timeoutSeconds: 10) { $0.reports.contains { $0["note"] is String } },
                    "pitch reports; stderr: \(live!.stderr)")
            try peer.send("/nsm/client/save", [])
            #expect(peer.next("/reply")?.arguments == [.string("/nsm/client/save"), .string("OK")])
            let saved = try #require(try SessionSettings.load(sessionPath: sessionPath))
            #expect(saved.mode == .pitch && saved.pitchLowHz == 100 && saved.pitchHighHz == 1500)
            #expect(saved.bendRangeSemitones == 7 && saved.a4Hz == 442)
            live!.signal(SIGTERM)
            #expect(live!.exitStatus(timeoutSeconds: 5)?.status == 0)
            live = nil
            try waitForPort("\(clientID):out", server: server.name, toExist: false)

            // 2. Restarted without them, in the same session: it names pitches against A4 = 442 Hz.
            let peer2 = try NSMServerPeer()
            let again = try LiveCommand(plain, environment: ["NSM_URL": peer2.url])
            _ = try #require(try peer2.openSession(path: sessionPath, clientID: clientID))
            #expect(peer2.next("/reply")?.arguments == [.string("/nsm/client/open"), .string("OK")])
            // 1000 Hz against B5 = 442 · 2^(14/12) Hz.
            let cents = 1200 * log2(1000 / (442 * pow(2, 14.0 / 12)))
            #expect(again.waitUntil(timeoutSeconds: 10) { live in
                live.reports.filter { $0["note"] as? String == "B5" && abs(($0["cents"] as? Double ?? 99) - cents) < 0.5 }.count >= 2
            }, "stderr: \(again.stderr)")
            // 3. Saved again, the restored node still holds every option.
            try FileManager.default.removeItem(atPath: sessionPath + ".json")
            try peer2.send("/nsm/client/save", [])
            #expect(peer2.next("/reply")?.arguments == [.string("/nsm/client/save"), .string("OK")])
            let resaved = try #require(try SessionSettings.load(sessionPath: sessionPath))
            #expect(resaved == saved)
        }
    }
}
