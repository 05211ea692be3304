import Foundation
import Synchronization
import ToneCore

/// A Non Session Manager (NSM API 1.2) client for `tonenode run`.
///
/// `join` announces ToneNode to the server at `NSM_URL` and waits (bounded)
/// for `/nsm/client/open`; the caller then uses the client id as its JACK
/// name and the session's saved settings. `start` runs a thread of its own
/// that answers `/nsm/client/save` by writing the settings as they are then
/// (atomically) and tells the server when they differ from the saved ones
/// (`/nsm/client/is_dirty`, `is_clean`). Nothing here touches the audio thread.
public final class NSMClient: @unchecked Sendable {
    // @unchecked Sendable: the endpoint is used by the caller until `start`,
    // then only by the client's thread; `stopped` is atomic.
    private let endpoint: OSCEndpoint
    public let serverURL: String
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// What `/nsm/client/open` gave.
    public struct Session: Sendable {
        public let path: String
        public let displayName: String
        public let clientID: String
    }

    /// NSM error codes used here.
    public enum ErrorCode: Int32 {
        case general = -1
        case badProject = -9
    }

    /// A malformed `NSM_URL` or no socket: a one-line reason.
    public init(serverURL: String) throws(OSCError) {
        if let problem = OSCEndpoint.problem(url: serverURL) {
            throw .badServerURL(reason: problem)
        }
        self.serverURL = serverURL
        endpoint = try OSCEndpoint()
    }

    deinit { stop() }

    /// Announces and waits up to `timeoutSeconds` for the session to open;
    /// throws a one-line reason when the server refuses or does not answer;
    /// nil when `stopped` turns true while waiting (a signal).
    public func join(executable: String, timeoutSeconds: Double = 5,
                     stopped: () -> Bool = { false }) throws(OSCError) -> Session? {
        try endpoint.send(to: serverURL, path: "/nsm/server/announce", [
            .string("ToneNode"), .string(":dirty:"), .string(executable),
            .int(1), .int(2), .int(Int32(ProcessInfo.processInfo.processIdentifier)),
        ])
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if stopped() { return nil }
            let remaining = Int(deadline.timeIntervalSinceNow * 1000) + 1
            guard let message = endpoint.receive(timeoutMilliseconds: max(1, min(remaining, 200))) else { continue }
            switch message.path {
            case "/error" where message.arguments.first?.stringValue == "/nsm/server/announce":
                let reason = message.arguments.dropFirst(2).first?.stringValue ?? "no reason given"
                throw .refused(server: serverURL, reason: reason)
            case "/nsm/client/open":
                guard message.arguments.count >= 3,
                      let path = message.arguments[0].stringValue,
                      let name = message.arguments[1].stringValue,
                      let clientID = message.arguments[2].stringValue, !clientID.isEmpty else {
                    throw .malformed(message: message.description)
                }
                return Session(path: path, displayName: name, clientID: clientID)
            default:
                continue  // the announce's /reply, or anything else before open
            }
        }
        throw .noAnswer(server: serverURL, seconds: timeoutSeconds)
    }

    /// Replies OK to a request (`/nsm/client/open`, `/nsm/client/save`).
    public func replyOK(to path: String) {
        try? endpoint.send(to: serverURL, path: "/reply", [.string(path), .string("OK")])
    }

    /// Replies with an NSM error to a request.
    public func replyError(to path: String, code: ErrorCode, message: String) {
        try? endpoint.send(to: serverURL, path: "/error", [.string(path), .int(code.rawValue), .string(message)])
    }

    /// Answers saves and reports dirtiness on a thread of its own until `stop`.
    /// `settings` gives the node's settings as they are at the moment;
    /// `saved` those last saved (or loaded); `report` gets one line per event.
    public func start(session: Session, saved: SessionSettings,
                      settings: @escaping @Sendable () -> NodeSettings,
                      report: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            serve(session: session, saved: saved, settings: settings, report: report)
            finished.signal()
        }
        thread.name = "tonenode-nsm"
        thread.start()
    }

    /// Stops the thread (within about 200 ms). Safe to call twice, or without `start`.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = finished.wait(timeout: .now() + 1)
    }

    private func serve(session: Session, saved: SessionSettings,
                       settings: @Sendable () -> NodeSettings, report: @Sendable (String) -> Void) {
        var lastSaved = saved
        var dirty = false
        while !stopped.load(ordering: .acquiring) {
            if let message = endpoint.receive(timeoutMilliseconds: 200) {
                switch message.path {
                case "/nsm/client/save":
                    let current = SessionSettings(settings())
                    do throws(SessionFileError) {
                        try current.save(sessionPath: session.path)
                        lastSaved = current
                        dirty = false
                        replyOK(to: "/nsm/client/save")
                        report("NSM: saved to \(SessionSettings.fileURL(sessionPath: session.path).path)")
                    } catch {
                        replyError(to: "/nsm/client/save", code: .general, message: error.description)
                        report("error: NSM: " + error.description)
                    }
                case "/nsm/client/open":
                    // Switching sessions would need a new JACK name: not while running.
                    replyError(to: "/nsm/client/open", code: .general,
                               message: "ToneNode cannot switch sessions while running; restart it")
                default:
                    break  // /reply to our own messages, session_is_loaded, GUI messages
                }
            }
            let nowDirty = SessionSettings(settings()) != lastSaved
            if nowDirty != dirty {
                dirty = nowDirty
                try? endpoint.send(to: serverURL, path: dirty ? "/nsm/client/is_dirty" : "/nsm/client/is_clean", [])
            }
        }
    }
}
