import ArgumentParser
import Foundation
import ToneCore
import ToneOSC
import ToneCommandLine

/// Joins the NSM session named by `NSM_URL`, if any, before JACK is opened.
enum NSMJoin {
    struct Joined {
        let client: NSMClient
        let session: NSMClient.Session
        let saved: SessionSettings
    }

    /// nil without `NSM_URL`, or when the server refuses or does not answer
    /// (one line on stderr; the node runs without a session). A malformed
    /// `NSM_URL` or an unreadable session file is an error (status 1).
    static func join(settings: inout NodeSettings, stopped: @escaping () -> Bool) throws -> Joined? {
        guard let url = ProcessInfo.processInfo.environment["NSM_URL"] else { return nil }
        let client: NSMClient
        do throws(OSCError) {
            client = try NSMClient(serverURL: url)
        } catch {
            Console.err("error: " + error.description)
            throw ExitCode.failure
        }
        let session: NSMClient.Session
        do throws(OSCError) {
            let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "tonenode").lastPathComponent
            guard let joined = try client.join(executable: executable, stopped: stopped) else { return nil }
            session = joined
        } catch {
            Console.err("NSM: \(error.description); running without a session")
            return nil
        }
        do throws(SessionFileError) {
            if let saved = try SessionSettings.load(sessionPath: session.path) {
                saved.apply(to: &settings)
            }
        } catch {
            client.replyError(to: "/nsm/client/open", code: .badProject, message: error.description)
            Console.err("error: NSM: " + error.description)
            throw ExitCode.failure
        }
        settings.clientName = session.clientID
        client.replyOK(to: "/nsm/client/open")
        Console.err("NSM: session '\(session.displayName)', client id '\(session.clientID)', settings in \(SessionSettings.fileURL(sessionPath: session.path).path)")
        return Joined(client: client, session: session, saved: SessionSettings(settings))
    }
}
