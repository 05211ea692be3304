import Testing
import ToneDSP

@Suite struct EqualTemperamentTests {
    @Test(arguments: [(40, "E2"), (69, "A4"), (61, "C#4"), (60, "C4"), (21, "A0"), (0, "C-1"), (127, "G9")])
    func names(midiNote: Int, name: String) {
        #expect(EqualTemperament.name(midiNote: midiNote) == name)
    }

    @Test func e2IsItsTextbookFrequency() {
        let tuning = EqualTemperament()
        #expect(abs(tuning.frequencyHz(midiNote: 40) - 82.40689) < 1e-5)
    }

    @Test(arguments: [415.0, 440.0, 442.0])
    func centsAgainstTheReference(a4Hz: Double) throws {
        let tuning = EqualTemperament(a4Hz: a4Hz)
        let sharp = tuning.frequencyHz(midiNote: 52) * pow(2, 7.5 / 1200)
        let nearest = try #require(tuning.nearestNote(frequencyHz: sharp))
        #expect(nearest.midiNote == 52)
        #expect(abs(nearest.cents - 7.5) < 1e-9)
        #expect(tuning.nearestNote(frequencyHz: .nan) == nil)
        #expect(tuning.nearestNote(frequencyHz: 0) == nil)
    }
}

#if canImport(Glibc)
import Glibc
#endif
