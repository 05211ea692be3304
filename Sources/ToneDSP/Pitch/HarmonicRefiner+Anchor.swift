// MARK: - When the steps stop, the noise floor and the first partial

extension HarmonicRefiner {
    /// `refine` stops once a Newton step moved the fundamental less than
    /// this many bins over the harmonics counted (1e-3 bin over 8: 1.25e-4).
    /// The next step is then of the order of the square of this one times
    /// the harmonics: below the single-precision sums' own scatter, which
    /// moves a reading by up to 1e-4 cent whatever the steps. A tracked
    /// window (a held note) starts that close and so costs one or two
    /// evaluations of the harmonic sums instead of three: on pitch-bench's
    /// plucks readings moved by at most 3e-4 cent, CPU 0.58 → 0.33 s.
    static let convergedStepBins = 1e-3

    /// A harmonic counts in the Newton step only if its |S0|² reaches this
    /// many times the noise's expected |S0|² (10 dB): a harmonic that is
    /// only noise adds h²-weighted noise to the step and nothing to the
    /// fit. A 440 Hz sine at 10 dB SNR read 0.62 cents rms with all eight
    /// (2.5 times the bound), its fundamental alone reaches the bound.
    static let harmonicNoiseRatio = 10.0

    /// The first partial anchors the reading only if its |S0|² reaches this
    /// many times the noise's expected |S0|² (40 dB; the "noise" there also
    /// holds the partials above the eighth and what the stretch moves off
    /// k·ω, so a clean pluck stands far above it). Below, the harmonics' fit,
    /// with all their information, is the better reading: from the first
    /// partial alone at 30 dB, plucks of E2 at 10 dB SNR read 1.7 cents off
    /// (median), against 0.62 at 40 dB (PitchDetectorAccuracyTests).
    static let anchorNoiseRatio = 1e4

    /// … and at least this share of the harmonics' |S0|² (−20 dB): a sound
    /// without a fundamental keeps the fit's reading.
    static let anchorShareMin = 0.01

    /// Bins the first partial may move the reading at most (a stiff
    /// string's stretch at the strongest: B = 10⁻³ with eight partials is
    /// about 2 % of the partial spacing, 0.3 bin at 16 bins).
    static let anchorStepMaxBins = 0.5

    /// |S0|² that a harmonic must reach to count in the step: the noise's
    /// expected |S0|² (σ²·Σw², σ² the windowed power the harmonics found at
    /// this evaluation do not carry) times `harmonicNoiseRatio`. Zero for a
    /// clean sound (rounding leaves σ² at or below zero): every harmonic counts.
    func noiseFloor(harmonics: Int, windowedPower: Double, sumWindow: Double, squareSumWindow: Double) -> Double {
        var power = 0.0
        for k in 0..<harmonics { power += sums[k].power }
        let noise = windowedPower - power * 2 / (sumWindow * sumWindow)
        return noise > 0 && noise.isFinite ? Self.harmonicNoiseRatio * noise * squareSumWindow : 0
    }

    /// The first partial's own frequency near `omega`, else `omega`: a
    /// tuner's convention. A stiff string's partials are stretched
    /// (f_k = k·f₀·√(1 + B·k²)), and the harmonic fit read up to 0.9 cents
    /// sharp of the first partial just after a pluck of G3; a harmonic
    /// sound's first partial is where the fit is (within rounding); a sound
    /// without a fundamental keeps the fit's reading.
    ///
    /// - A lone partial (every other harmonic below `noiseFloor`: a sine in
    ///   noise) is left to `PitchDetector` (`isLone`: a least-squares sine
    ///   fit on the raw samples reaches the bound there).
    /// - Else, one Newton step on it under Blackman–Harris (the frame as
    ///   folded), when it stands `anchorNoiseRatio` over the noise, carries
    ///   `anchorShareMin` of the harmonics and moves less than `anchorStepMaxBins`.
    /// Whether every harmonic but the first of the last evaluation stays under `noiseFloor` (> 0).
    func isLone(noiseFloor: Double, harmonics: Int) -> Bool {
        guard noiseFloor > 0 else { return false }
        for k in 1..<max(1, harmonics) where sums[k].power >= noiseFloor { return false }
        return true
    }

    ///
    /// `evaluatedAt`: where the last evaluation's sums were taken when the
    /// fit converged there (its step below `convergedStepBins`): the Newton
    /// step on the first partial starts from there, with the sums it has,
    /// instead of evaluating the first partial again at `omega`; a start that
    /// much closer or further changes the step's landing by far less than it.
    func anchoredOnFirstPartial(_ omega: Double, evaluatedAt: Double? = nil, noiseFloor: Double,
                                harmonics: Int) -> Double {
        var total = 0.0
        for k in 0..<harmonics { total += sums[k].power }
        let limit = Self.anchorStepMaxBins * 2 * Double.pi / Double(frameSize)
        if isLone(noiseFloor: noiseFloor, harmonics: harmonics) { return omega }
        if evaluatedAt == nil { _ = evaluate(omega: omega, harmonics: 1) }
        let start = evaluatedAt ?? omega
        let anchorFloor = noiseFloor * Self.anchorNoiseRatio / Self.harmonicNoiseRatio
        guard sums[0].power > 0, sums[0].power >= anchorFloor, sums[0].power >= Self.anchorShareMin * total,
              let step = firstPartialStep(), abs(start + step - omega) <= limit else { return omega }
        return start + step
    }

    /// The Newton step on |X(ω)|² of the first partial alone (the last
    /// evaluation's sums), nil where
    /// |X|² is not concave.
    private func firstPartialStep() -> Double? {
        let sum = sums[0]
        let xr = sum.s0r, xi = sum.s0i
        let dr = sum.s1i, di = -sum.s1r
        let sr = -sum.s2r, si = -sum.s2i
        let first = 2 * (xr * dr + xi * di)
        let second = 2 * (xr * sr + xi * si + dr * dr + di * di)
        return second < 0 ? -first / second : nil
    }
}

// MARK: - The result

extension HarmonicRefiner {
    /// Result of a refinement: the fundamental and the power the harmonics carry.
    struct Result {
        var omega: Double
        /// Σₕ |X(hω)|² normalised to the mean power of the harmonics in the frame (sum of A²/2).
        var harmonicPower: Double
        /// The frame's mean power under the same window (Σ(w·x)² / Σw²): what
        /// `harmonicPower` is a part of. The plain mean of x² is not: over a
        /// window that holds a fraction of a cycle more or less, a clean
        /// sine's reads up to about 1e-3 of its power off, which an SNR then
        /// took for noise.
        var windowedPower: Double
        var harmonics: Int
        /// The fundamental's share of the harmonics' power (at the start ω).
        var fundamentalShare: Double
        /// Whether the fundamental alone stands out of the noise (see `isLone`):
        /// a sine in noise, for `PitchDetector`'s least-squares fit.
        var isLone = false
    }
}
