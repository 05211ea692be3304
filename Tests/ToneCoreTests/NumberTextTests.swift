import Testing
import ToneCore

@Suite("Numbers in sentences")
struct NumberTextTests {
    @Test("whole values lose their .0; the rest keep Swift's shortest form", arguments: [
        (440.0, "440"), (-6.0, "-6"), (0.0, "0"), (440.5, "440.5"), (1e-05, "1e-05"), (0.1 + 0.2, "0.30000000000000004"),
        (1e15, "1000000000000000.0"), (-1e20, "-1e+20"), (.infinity, "inf"), (-.infinity, "-inf"),
    ])
    func spelled(value: Double, text: String) {
        #expect(format(value) == text)
    }

    @Test func notANumber() {
        #expect(format(.nan) == "nan")
    }
}
