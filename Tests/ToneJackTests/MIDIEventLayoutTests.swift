import Testing
@testable import ToneJack

@Suite("MIDIEvent and the bridge's C event")
struct MIDIEventLayoutTests {
    @Test("MIDIEvent has the bridge's C event layout, so render reads the events in place")
    func layout() {
        #expect(ProcessBridge.midiLayoutMatches)
    }
}
