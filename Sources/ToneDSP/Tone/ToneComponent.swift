/// One tone found in a window (of the several `--tones K` asks for).
public struct ToneComponent: Sendable, Equatable {
    public var frequencyHz: Double
    /// 20·log10 of the tone's peak amplitude (full-scale sine = 0 dBFS).
    public var levelDBFS: Double
    /// The tone's power over what is left of the window once every reported tone is removed.
    public var snrDB: Double

    public init(frequencyHz: Double, levelDBFS: Double, snrDB: Double) {
        self.frequencyHz = frequencyHz
        self.levelDBFS = levelDBFS
        self.snrDB = snrDB
    }
}
