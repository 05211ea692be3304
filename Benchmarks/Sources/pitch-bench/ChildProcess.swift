#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs a program to completion with stdout sent to a file, and reports the
/// CPU time (user + system) the kernel charged to that one child (`wait4`).
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var cpuSeconds: Double
    }

    static func run(_ arguments: [String], stdoutPath: String) -> Outcome? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return Outcome(status: status, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
