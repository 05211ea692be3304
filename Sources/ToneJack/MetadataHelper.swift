import CJack
import Foundation
import Synchronization

/// The process that makes one node client's JACK metadata calls (pretty
/// names): tonenode re-executes itself with `subcommand` (hidden from
/// `--help`), and `main` runs here.
///
/// Why a process of its own: jack2 keeps metadata in a Berkeley DB store
/// shared by every client of the user (`/dev/shm/jack_db-UID`), opened
/// without `failchk`. A process that dies while it waits for a lock there
/// leaves its request behind; when the holder lets go, the lock is granted to
/// the dead process, and every metadata write of that uid blocks for good
/// (jackd too). The node must end within 2 s of a signal whatever it waits
/// for, so it never makes a metadata call itself; this helper does, and it
/// never ends inside one: it waits as long as the store makes it wait,
/// SIGINT/SIGTERM/SIGHUP/SIGQUIT are blocked and looked at only between
/// calls, and it is in a session of its own (a terminal's Ctrl-C is not for
/// it). Only SIGKILL can still end it inside a call (documented in
/// docs/engineering/reliability.md).
///
/// Protocol (argv, then its stdin and stdout, pipes from and to the node):
/// `subcommand SERVER CLIENT-NAME SUBJECT NAME [SUBJECT NAME…]`, SERVER empty
/// for the default server, SUBJECT a decimal `jack_uuid_t`. It opens a client
/// of its own named CLIENT-NAME (no ports; jack2's metadata calls need a
/// client to notify through; activated only under PipeWire, for a round
/// trip: `tn_metadata_round_trip`), sets each pretty name, closes the client
/// (an idle helper client stalled jackd: 8 nodes with open helper clients
/// all hit the grace period when stopped together), writes `set STORED
/// ASKED` on stdout (fewer stored than asked: the node warns), then waits
/// for the end of its stdin or one of those signals. Only when the node wrote its one "closing" byte first
/// (its client is about to close in order) does it open its client again,
/// remove exactly the keys it stored (one keyed delete each), close it and
/// exit, all within `removalSeconds` (a watchdog ends it after that, only
/// between calls); a stdin that just ends (the node killed, or `_exit`ed
/// with the server stopped) leaves the keys to jackd's own clean-up of the
/// closed client: a client opened then queued behind jackd's catching up
/// and stalled new clients for over a minute. The node
/// waits for that (at most 0.5 s) before it closes its own client: jackd
/// would otherwise delete the keys at that close and notify every client
/// while several are closing, and its one request thread blocks writing to
/// a closing client that no longer reads (about 30 unread notifications fill
/// the socket; seen with 8 nodes stopped together).
public enum MetadataHelper {
    /// The hidden argument that makes tonenode this helper.
    public static let subcommand = "__jack-metadata-helper"

    /// Runs the helper with the arguments after `subcommand`; never returns.
    ///
    /// It ends with `_exit`, never `exit`: it has nothing to flush (its one
    /// line is a raw `write`) and no exit handlers, and libjack can leave the
    /// dynamic loader's lock held by a thread it cancelled (an open that
    /// failed as the server died: `jack_client_close` cancels the
    /// notification thread asynchronously), so that `exit`'s library
    /// clean-up (`_dl_fini`) waits for it for good. A fresh-clone CI run
    /// (2026-11-27) left two helpers so: one of a test's node whose server
    /// was stopped and its socket swapped, one of the stress run's
    /// "sigkill" nodes, each the only thread left, in `_dl_fini`.
    public static func main(arguments: [String]) -> Never {
        signal(SIGPIPE, SIG_IGN)    // the node gone: EPIPE on our one write, nothing more
        JackClient.silenceLibraryMessages()
        // Under jack2 its client is never activated: nothing to lock (a failure here only costs the lock's time).
        _ = tn_forgo_large_memory_locks()
        guard arguments.count >= 2, arguments.count % 2 == 0 else { _exit(64) }
        let server = arguments[0].isEmpty ? nil : arguments[0]
        var names: [(subject: jack_uuid_t, name: String)] = []
        for index in stride(from: 2, to: arguments.count, by: 2) {
            guard let subject = jack_uuid_t(arguments[index]) else { _exit(64) }
            names.append((subject, arguments[index + 1]))
        }
        guard let client = open(name: arguments[1], server: server) else { _exit(1) }
        var stored: [jack_uuid_t] = []
        for (subject, name) in names {
            if nodeHasEnded(waitingMilliseconds: 0) { break }
            if tn_set_pretty_name(client, subject, name) == 0 { stored.append(subject) }
        }
        // Under PipeWire the names are only queued until this round trip (see `tn_metadata_round_trip`).
        _ = tn_metadata_round_trip(client)
        // Closed while idle: an open client that reads no notifications stalls jackd (see the type).
        jack_client_close(client)
        say("set \(stored.count) \(names.count)\n")
        while !nodeHasEnded(waitingMilliseconds: 200) {}
        // The node ended without closing in order (killed, or `_exit` after its grace period,
        // perhaps with the server stopped): jackd removes a closed client's properties and
        // its ports' itself (jack2 1.9.21 `JackEngine::ClientCloseAux`), so nothing to do,
        // and a client opened now would only queue behind jackd's catching up.
        guard !stored.isEmpty, closingInOrder else { _exit(0) }
        // Bounded: a server that does not answer within `removalSeconds` is left to its own
        // clean-up. The watchdog ends us only between metadata calls (it takes `callLock`).
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: removalSeconds)
            callLock.withLock { _ in _exit(0) }
        }
        guard let client = open(name: arguments[1], server: server) else { _exit(0) }
        for subject in stored {
            _ = callLock.withLock { _ in tn_remove_pretty_name(client, subject) }
        }
        _ = callLock.withLock { _ in tn_metadata_round_trip(client) }
        jack_client_close(client)
        _exit(0)
    }

    /// How long the removals may take in all (the node waits 0.5 s for them).
    static let removalSeconds = 1.0
    /// Held for each removal call: the watchdog never ends the helper inside one.
    private static let callLock = Mutex<Void>(())
    /// The node wrote its "closing" byte (`MetadataHelperProcess.finish`) before its stdin ended.
    nonisolated(unsafe) private static var closingInOrder = false

    /// Opens the helper's client (no ports; activated only under PipeWire, for a round trip).
    private static func open(name: String, server: String?) -> OpaquePointer? {
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        return tn_client_open(name, options, &status, server)
    }

    /// Whether the node has ended (end of stdin, or a read error) or a
    /// terminating signal is pending; waits for stdin at most `waitingMilliseconds`.
    private static func nodeHasEnded(waitingMilliseconds: Int32) -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] where sigismember(&pending, number) == 1 { return true }
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, waitingMilliseconds)
        if ready < 0 { return errno != EINTR }
        guard ready > 0 else { return false }
        var byte: UInt8 = 0
        // The node writes one byte only, just before it closes its end: "closing in order".
        let count = read(0, &byte, 1)
        if count == 1 {
            closingInOrder = true
            return true
        }
        return !(count < 0 && errno == EINTR)
    }

    /// Writes one status line to the node; a node already gone is fine.
    private static func say(_ line: String) {
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
    }
}
