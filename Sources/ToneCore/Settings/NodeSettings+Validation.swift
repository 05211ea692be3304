import ToneDSP
import ToneModem

// MARK: - The rules (the limits are the declarations' ranges, `Parameters`)
//
// A range is checked for every declaration that words it (`rangeWording`);
// the rules that are not a range are named here, once: a frequency below
// Nyquist, a level at or below full scale, an FFT size a power of two, a hop
// within the window, the band, the pitch range, the ports a command has.

extension NodeSettings {
    /// Every rule these settings break, in the order a person would fix them
    /// (the first is the one to report). The one home of the node's limits:
    /// the command line, control lines, session files and `Node.init` all ask here.
    ///
    /// - Parameter sampleRateHz: the server's (or file's) rate; nil checks only
    ///   the rules that do not depend on it (before JACK is opened).
    public func problems(sampleRateHz: Double?) -> [SettingsProblem] {
        var found: [SettingsProblem] = []
        func check(_ problem: SettingsProblem?) { if let problem { found.append(problem) } }
        check(Self.frequencyProblem(frequencyHz, sampleRateHz: sampleRateHz))
        check(Self.levelProblem(levelDBFS))
        if !ToneEstimatorConfiguration.isValidFFTSize(fftSize) {
            found.append(SettingsProblem(.fftSize, .fftSize(fftSize)))
        } else if !HopWindow.hopRange(size: fftSize).contains(hopFrames) {
            found.append(SettingsProblem(.hop, .hop(hopFrames, fftSize: fftSize)))
        }
        check(bandProblem(sampleRateHz: sampleRateHz))
        if !snrMinDB.isFinite { found.append(SettingsProblem(.snrMin, .notFiniteDB(snrMinDB))) }
        // Every declared range with its wording (tones, A4, channels, bend range…), in `Parameters.node`'s order.
        found += Parameters.node.compactMap { $0.rangeProblem(in: self) }
        check(pitchProblem(sampleRateHz: sampleRateHz))
        found += portProblems()
        guard let sampleRateHz else { return found }
        if analyzesTones, mode == .tone,
           !Parameters.sampleRate.accepts(sampleRateHz) {
            found.append(SettingsProblem(.sampleRate, .sampleRate(sampleRateHz)))
        }
        if receivesMessages, let profiles = messageProfiles {
            for profile in profiles {
                if let sentence = profile.parameters.problem(sampleRateHz: sampleRateHz) {
                    found.append(SettingsProblem(.receiveProfiles, .profileDoesNotFit(sentence)))
                }
            }
        }
        if receivesMessages, receivesCable, let sentence = CableGeometry.problem(sampleRateHz: sampleRateHz) {
            found.append(SettingsProblem(.receiveProfiles, .profileDoesNotFit(sentence)))
        }
        return found
    }

    /// Connections that need a port these settings do not register.
    func portProblems() -> [SettingsProblem] {
        var found: [SettingsProblem] = []
        if !ports.contains(.audioIn), !connectIn.isEmpty { found.append(SettingsProblem(.connectIn, .noSuchPort("in"))) }
        if !ports.contains(.audioOut), !connectOut.isEmpty { found.append(SettingsProblem(.connectOut, .noSuchPort("out"))) }
        if !ports.contains(.midiIn), !connectMidi.isEmpty { found.append(SettingsProblem(.connectMidi, .noSuchPort("midi_in"))) }
        if loopback, !ports.isSuperset(of: [.audioIn, .audioOut]) {
            found.append(SettingsProblem(.loopback, .noSuchPort(ports.contains(.audioIn) ? "out" : "in")))
        }
        return found
    }

    /// A tone frequency: positive and finite, and below Nyquist once the rate is known.
    /// Shared by `--freq`, control lines (freq, beep, sweep) and `measure`.
    public static func frequencyProblem(_ hz: Double, sampleRateHz: Double?,
                                        setting: SettingsProblem.Setting = .frequency) -> SettingsProblem? {
        guard Parameters.frequency.accepts(hz) else { return SettingsProblem(setting, .notPositiveHz(hz)) }
        if let sampleRateHz, !ToneFrequency.isBelowNyquist(hz, sampleRateHz: sampleRateHz) {
            return SettingsProblem(setting, .notBelowNyquist(hz: hz, nyquistHz: sampleRateHz / 2))
        }
        return nil
    }

    /// A peak level: finite, at or below full scale.
    public static func levelProblem(_ dbfs: Double, setting: SettingsProblem.Setting = .level) -> SettingsProblem? {
        Parameters.level.accepts(dbfs) ? nil : SettingsProblem(setting, .notDBFS(dbfs))
    }

    /// A message sent as tones: not empty, and no longer than the modem's frames can carry.
    public static func messageProblem(byteCount: Int) -> SettingsProblem? {
        if byteCount == 0 { return SettingsProblem(.message, .messageEmpty) }
        if byteCount > ModemFrame.maximumMessageBytes { return SettingsProblem(.message, .messageTooLong(bytes: byteCount)) }
        return nil
    }

    /// The tone analysis band: `0 ≤ lowHz < highHz`, the top at or below
    /// Nyquist, and (tone mode, rate known) at least a few FFT bins wide.
    private func bandProblem(sampleRateHz: Double?) -> SettingsProblem? {
        let topHz = highHz ?? sampleRateHz.map { $0 / 2 } ?? .infinity
        // An upper edge given must be a number; only "up to Nyquist" (nil) is open before the rate is known.
        let fault = highHz?.isFinite == false ? .empty : ToneEstimatorConfiguration.bandFault(
            lowHz: lowHz, highHz: topHz, sampleRateHz: sampleRateHz,
            fftSize: analyzesTones && mode == .tone && ToneEstimatorConfiguration.isValidFFTSize(fftSize) ? fftSize : nil)
        switch fault {
        case .empty?: return SettingsProblem(.band, .bandEmpty(lowHz: lowHz, highHz: topHz))
        case .aboveNyquist(let nyquistHz)?: return SettingsProblem(.band, .bandAboveNyquist(highHz: topHz, nyquistHz: nyquistHz))
        case .narrowerThanBins(let binHz)?:
            return SettingsProblem(.band, .bandNarrowerThanBins(lowHz: lowHz, highHz: topHz, binHz: binHz))
        case nil: return nil
        }
    }

    /// Pitch mode: a range of fundamentals, and (rate known) a window that holds two periods of one.
    private func pitchProblem(sampleRateHz: Double?) -> SettingsProblem? {
        guard pitchLowHz.isFinite, pitchHighHz.isFinite, pitchLowHz > 0, pitchHighHz > pitchLowHz else {
            return SettingsProblem(.pitchRange, .pitchRangeEmpty(lowHz: pitchLowHz, highHz: pitchHighHz))
        }
        guard analyzesTones, mode == .pitch, let sampleRateHz, sampleRateHz.isFinite, sampleRateHz > 0,
              fftSize >= PitchDetectorConfiguration.minimumFrameSize else { return nil }
        let configuration = pitchConfiguration(sampleRateHz: sampleRateHz)
        guard configuration.highHz > configuration.lowHz else {
            return SettingsProblem(.pitchRange, .pitchRangeEmpty(lowHz: configuration.lowHz, highHz: configuration.highHz))
        }
        guard configuration.holdsTwoPeriods else {
            return SettingsProblem(.fftSize, .pitchWindowTooShort(frames: fftSize, sampleRateHz: sampleRateHz,
                                                                  lowHz: configuration.lowHz, highHz: configuration.highHz))
        }
        return nil
    }
}
