import EndToEndSupport
import Foundation
import Testing
@testable import ToneJack

extension JackServerTests {
    /// Issue 44: the environment fault behind a CI run's 101 servers in a row
    /// that "did not come up" (2026-12-06), told apart and repaired
    /// (`JackMetadataStore`, `startServer`). Under a uid of its own, so no
    /// other test's servers share the store it breaks.
    @Suite("JACK's metadata store: a broken one kills starting servers; removed, they start")
    struct MetadataStoreFaultTests {
        let uid = 400_000 + UInt32(getpid() % 100_000)

        private func jackd(_ name: String) throws -> LiveCommand {
            try LiveCommand(["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/jackd", "-n", name,
                             "--no-realtime", "-d", "dummy", "-r", "48000", "-p", "256"],
                            executable: "/usr/bin/setpriv",
                            environment: ["HOME": "/tmp", "JACK_NO_AUDIO_RESERVATION": "1"], stopGraceSeconds: 10)
        }

        private func socketPath(_ name: String) -> String { "/dev/shm/jack_\(name)_\(uid)_0" }

        @Test("a region file cut short: the next jackd dies of SIGBUS, silent; the store removed, the next one serves and removes it when it ends")
        func truncatedRegion() throws {
            let store = JackMetadataStore(uid: uid)
            store.remove()
            defer { store.remove() }
            let base = "tn-store-\(getpid())"
            let region = store.path + "/__db.002"
            // A server that made the store, killed (its uid's store only).
            let first = try jackd(base + "-a")
            defer { first.stop() }
            #expect(first.waitUntil(timeoutSeconds: 10) { _ in FileManager.default.fileExists(atPath: socketPath(base + "-a")) },
                    "jackd did not listen; stderr: \(first.stderr)")
            let size = (try? FileManager.default.attributesOfItem(atPath: region)[.size] as? Int) ?? 0
            try #require(size > 8192, "\(region): \(size) bytes")
            first.signal(SIGKILL)
            _ = first.exitStatus(timeoutSeconds: 5)
            unlink(socketPath(base + "-a"))
            // What a process killed while it grew the region leaves.
            try #require(truncate(region, 4096) == 0)

            let second = try jackd(base + "-b")
            defer { second.stop() }
            let ended = second.exitStatus(timeoutSeconds: 10)
            #expect(ended?.reason == .uncaughtSignal && ended?.status == SIGBUS,
                    "\(String(describing: ended)); stderr: \(second.stderr)")
            #expect(!second.stderr.contains("DB"), "it says nothing of the store: \(second.stderr)")

            #expect(store.remove())
            let third = try jackd(base + "-c")
            #expect(third.waitUntil(timeoutSeconds: 10) { _ in FileManager.default.fileExists(atPath: socketPath(base + "-c")) },
                    "stderr: \(third.stderr)")
            #expect(store.exists)
            third.signal(SIGTERM)
            #expect(third.exitStatus(timeoutSeconds: 10)?.status == 0, "stderr: \(third.stderr)")
            #expect(!store.exists, "a jackd that ends in order removes its user's store")
        }

        @Test("how a server ended at start-up is said: its last line past the banner")
        func lastLine() {
            let banner = "jackdmp 1.9.21\nJACK server starting in non-realtime mode\nself-connect-mode is \"x\"\n"
            #expect(PrivateJackServer.lastLine(ofLog: banner) == "")
            #expect(PrivateJackServer.lastLine(ofLog: banner + "Too many servers already active\n\n")
                == "Too many servers already active")
            #expect(PrivateJackServer.lastLine(ofLog: "") == "")
        }
    }
}
