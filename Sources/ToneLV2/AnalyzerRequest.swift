/// What `run()` hands the worker with each `schedule_work`: the control
/// inputs as they were then. The host copies it; plain values only.
struct AnalyzerRequest: BitwiseCopyable {
    /// 0 tone, 1 pitch (the `mode` port's enumeration).
    var mode: Float
    var a4Hz: Float
    /// The tone band (`--band` in tone mode).
    var lowHz: Float
    var highHz: Float
    /// The fundamental's range (`--band` in pitch mode).
    var pitchLowHz: Float
    var pitchHighHz: Float
    /// The longest steady span a reading integrates (`--steady`; 0: one window).
    var steadySeconds: Float

    @_noLocks
    init(mode: Float, a4Hz: Float, lowHz: Float, highHz: Float, pitchLowHz: Float, pitchHighHz: Float,
         steadySeconds: Float) {
        self.mode = mode
        self.a4Hz = a4Hz
        self.lowHz = lowHz
        self.highHz = highHz
        self.pitchLowHz = pitchLowHz
        self.pitchHighHz = pitchHighHz
        self.steadySeconds = steadySeconds
    }
}
