import Foundation
import Testing

/// Faults of the machine, not of ToneNode, that a test detected by a named
/// cause and repaired before it tried again. Each is printed as one line
/// and, when `TONENODE_ENVIRONMENT_FAULTS` names a file (scripts/test sets
/// it), appended there, so a run counts them (scripts/test prints the count
/// at its end; docs/engineering/tests.md, environment faults).
public enum EnvironmentFaults {
    public static func record(_ cause: String) {
        let line = "environment fault (repaired, tried again): \(cause)\n"
        FileHandle.standardError.write(Data(line.utf8))
        guard let path = ProcessInfo.processInfo.environment["TONENODE_ENVIRONMENT_FAULTS"],
              let file = FileHandle(forWritingAtPath: path) else { return }
        defer { try? file.close() }
        _ = try? file.seekToEnd()
        try? file.write(contentsOf: Data(line.utf8))
    }
}

/// jack2's metadata store for a user: a Berkeley DB environment at
/// /dev/shm/jack_db-UID that every server and client of the user opens.
/// A jackd ending in order removes it ("cleanup after libdb, nasty!" in
/// jack2's JackMetadata.cpp); one killed leaves it, and so do the mutexes of
/// every process killed with it open. Two faults follow: its mutex region
/// fills up (a starting jackd prints "BDB2034 unable to allocate memory for
/// mutex" and runs on), or a region file is left shorter than its header
/// says, and every jackd that opens it dies of SIGBUS before it listens,
/// printing nothing (a fresh-clone CI run, 2026-12-06: 101 servers in a row,
/// until one that lived ended in order and removed it;
/// MetadataStoreFaultTests shows both).
public struct JackMetadataStore: Sendable {
    public let uid: UInt32
    public init(uid: UInt32 = getuid()) { self.uid = uid }

    /// This process's user's store.
    public static var own: JackMetadataStore { JackMetadataStore() }

    public var path: String { "/dev/shm/jack_db-\(uid)" }

    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Removes the store; true when there was one.
    @discardableResult
    public func remove() -> Bool {
        (try? FileManager.default.removeItem(atPath: path)) != nil
    }

    /// Whether any jackd of the user is running (`pgrep -u UID -x jackd`).
    public var anyServerRunning: Bool {
        guard let pgrep = try? runCommand(["-u", String(uid), "-x", "jackd"], executable: "/usr/bin/pgrep",
                                          timeoutSeconds: 5) else { return true }
        return pgrep.status == 0
    }
}
