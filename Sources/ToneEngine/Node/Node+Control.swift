import ToneCore

extension Node {
    /// The node's one door for control: a command of the control language
    /// (what a `freq` line on stdin or an OSC message says), checked against
    /// the node's settings and sample rate (Nyquist, ranges), remembered for
    /// the next command, and handed to the audio thread, as the
    /// supervisor's `controller` does for a node it runs (`LiveControls`).
    /// The owner's task only, like the rest of `Node`;
    /// not for a node a `NodeSupervisor` runs: its `controller` is the door there.
    /// - Throws: the command's problem, or a full command queue (`'freq 440' dropped`).
    public func apply(_ command: ControlCommand) throws(ControlCommand.Problem) {
        try controls.apply(command)
    }

    /// The server's sample rate the node runs at.
    public var sampleRateHz: Double { engine.sampleRateHz }

    /// Frames the audio thread has rendered so far (any thread; the
    /// frame the next reading's time counts from).
    public var renderedFrames: Int { engine.renderedFrames.load(ordering: .relaxed) }

    /// Plays pre-rendered samples on `out`, from a task of its own.
    public var playback: NodePlayback { NodePlayback(engine: engine) }
}
