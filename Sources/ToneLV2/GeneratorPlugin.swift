import ToneDSP

/// The generator plugin's instance: the node's `ToneGenerator` (its steady
/// voice: phase-continuous, frequency and level ramped) driven by control
/// ports instead of commands. Audio thread, but for `init`, `connect` and `deinit`.
final class GeneratorPlugin {
    /// Ports, numbered as `bundle/tonenode.ttl` declares them (plain
    /// numbers: see `AnalyzerPlugin.Port`).
    enum Port {
        static let output = 0, frequency = 1, level = 2, mute = 3, glide = 4
        static let count = 5
    }

    let sampleRateHz: Double
    private let ports = PortTable(count: Port.count)
    private let generator: UnsafeMutablePointer<ToneGenerator>
    /// The controls as last applied (a change becomes a command).
    private var frequencyHz: Float = .nan
    private var levelDBFS: Float = .nan
    private var muted: Float = .nan
    private var glideSeconds: Float = .nan
    /// What a control input the host left unconnected reads: the node's
    /// defaults, as the bundle's `lv2:default`s (checked by LV2DeclarationTests).
    private let defaults = (frequencyHz: Float(ToneGenerator.defaultFrequencyHz),
                            levelDBFS: Float(ToneGenerator.defaultLevelDBFS),
                            glideSeconds: Float(ToneGenerator.defaultRampSeconds))

    init?(sampleRateHz: Double) {
        guard sampleRateHz.isFinite, sampleRateHz > 0 else { return nil }
        self.sampleRateHz = sampleRateHz
        generator = .allocate(capacity: 1)
        generator.initialize(to: ToneGenerator(sampleRateHz: sampleRateHz, frequencyHz: ToneGenerator.defaultFrequencyHz,
                                               levelAmplitude: 0, muted: true,
                                               rampFrames: max(1, Int(ToneGenerator.defaultRampSeconds * sampleRateHz))))
    }

    deinit {
        generator.deinitialize(count: 1)
        generator.deallocate()
        ports.free()
    }

    func connect(_ port: Int, _ data: UnsafeMutableRawPointer?) { ports.connect(port, data) }

    /// One block of the tone, after the controls that changed.
    @_noLocks
    func run(frames: Int) {
        applyControls()
        guard let output = ports.buffer(Port.output) else { return }
        generator.pointee.render(into: output, frames: frames)
    }

    @_noLocks
    private func applyControls() {
        let glide = ports.value(Port.glide, defaults.glideSeconds)
        if glide != glideSeconds {
            glideSeconds = glide
            // A glide applies to the next change (and to one under way from its next step).
            let seconds = glide.isFinite ? min(max(Double(glide), 0), 10) : Double(defaults.glideSeconds)
            generator.pointee.voice.rampFrames = max(1, Int(seconds * sampleRateHz))
        }
        let frequency = ports.value(Port.frequency, defaults.frequencyHz)
        if frequency != frequencyHz {
            frequencyHz = frequency
            // 0 (silence) unless 0 < f < Nyquist, as the node's `freq`.
            generator.pointee.apply(.tone(increment: Oscillator.increment(frequencyHz: Double(frequency),
                                                                           sampleRateHz: sampleRateHz)))
        }
        let level = ports.value(Port.level, defaults.levelDBFS)
        if level != levelDBFS {
            levelDBFS = level
            // 10^(dB/20) as 2^(dB · log2(10)/20): libm's pow is no call for the audio thread.
            let dbfs = level.isFinite ? min(Double(level), 0) : -200
            generator.pointee.apply(.level(amplitude: exponentOfTwo(dbfs * 0.166_096_404_744_368_1)))
        }
        let mute = ports.value(Port.mute, 0)
        if mute != muted {
            muted = mute
            generator.pointee.apply(.mute(mute >= 0.5))
        }
    }
}
