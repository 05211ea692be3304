import Foundation
import ToneJack

extension PrivateJackServer {
    /// Ends the server by PID: SIGTERM (after a SIGCONT), SIGKILL once
    /// `graceSeconds` have passed (0: SIGKILL at once), and waits (bounded)
    /// until it is gone; then removes what it and its clients left in
    /// /dev/shm (the files named for it; its registry slot is reclaimed at
    /// the next start). For a server whose clients died while it was
    /// stopped: told to stop, a jackd without real-time scheduling then
    /// waits 5 s and 1 s for each (`stop` waits 10 s before its SIGKILL).
    func end(graceSeconds: Double) {
        kill(pid, SIGCONT)
        kill(pid, graceSeconds > 0 ? SIGTERM : SIGKILL)
        let alive = { FileManager.default.fileExists(atPath: "/proc/\(self.pid)/stat") && !self.isZombie }
        let grace = Date().addingTimeInterval(graceSeconds)
        while alive() && Date() < grace { usleep(20_000) }
        if alive() { kill(pid, SIGKILL) }
        // Until reaped: jack2 takes a server whose PID still answers (a
        // zombie does) for alive, and a new one of its name would not start.
        let deadline = Date().addingTimeInterval(5)
        while FileManager.default.fileExists(atPath: "/proc/\(pid)/stat") && Date() < deadline { usleep(20_000) }
        usleep(200_000)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        for entry in entries where entry.contains(name) {
            try? FileManager.default.removeItem(atPath: "/dev/shm/\(entry)")
        }
    }

    /// Ended, not yet reaped (by `Process`, on a thread of its own).
    private var isZombie: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return false }
        return stat[afterName.upperBound...].first == "Z"
    }
}
