import ToneDSP
import ToneModem
import ToneJack

// What a supervisor's `run` hands its handler, and how it ends.

extension NodeSupervisor {
    public enum Event {
        /// A node is running (the first, or one reopened after a restart).
        case opened(Node, reconnected: Bool)
        case report(ToneReport)
        /// A decoded (or incomplete) message on input `channel`; add
        /// `timeOffsetSeconds` to its time (the audio of earlier nodes, after a restart).
        case message(ModemEvent, channel: Int, timeOffsetSeconds: Double)
        case trouble(xruns: Int, overflows: Int, droppedFrames: Int)
        /// The server's period (PipeWire's quantum) changed while the node ran.
        case periodChanged(periodFrames: Int)
        /// The process callback's durations so far (`--profile-callback`):
        /// every few seconds, and once more when a node closes.
        case callbackProfile(CallbackProfile)
        /// The server's sample rate changed under the node (PipeWire's
        /// `clock.force-rate`): it is closed and reopened at the new rate.
        case sampleRateChanged(fromHz: Int, toHz: Int)
        /// The server shut the client down; `retrying` says whether we wait for it.
        case serverGone(retrying: Bool)
        /// A reopened node could not restore these connections yet (their
        /// other ends do not exist); they are retried.
        case connectionsPending([NodeConnection])
        /// Pending connections that have now been made.
        case connectionsRestored([NodeConnection])
    }

    public enum Outcome: Equatable {
        /// `requestStop` was called (a signal, `--duration`).
        case stopped
        /// The server went away and reconnecting was not asked for.
        case serverGone
    }
}
