import ArgumentParser
import ToneCore
import ToneEngine
import ToneJack

/// How the node is played from outside: MIDI on `midi_in`, OSC over UDP.
struct ControlOptions: ParsableArguments {
    @Option(name: [.customShort("O"), .customLong("osc-port")], parsing: .unconditional, help: ArgumentHelp(
        "Listen for OSC over UDP on this port: /tonenode/freq f, /tonenode/level f, /tonenode/mute i, /tonenode/beep f f, /tonenode/sweep f f f.",
        valueName: "port"))
    var oscPort: Int?

    @Option(name: .customLong("osc-host"), help: ArgumentHelp(
        "Address the OSC socket binds to (0.0.0.0 or :: for every interface).", valueName: "address"))
    var oscHost = "127.0.0.1"

    @Option(name: .customLong("connect-midi"), help: ArgumentHelp(
        "Connect this MIDI port to our `midi_in` after activation (repeatable).", valueName: "port"))
    var connectMidi: [String] = []

    @Option(name: .customLong("bend-range"), parsing: .unconditional, help: ArgumentHelp(
        "Pitch-bend range on `midi_in`, in semitones either way (\(Int(NodeSettings.bendRangeLimitSemitones.lowerBound))…\(Int(NodeSettings.bendRangeLimitSemitones.upperBound))).",
        valueName: "semitones"))
    var bendRange = 2.0

    func apply(to settings: inout NodeSettings) {
        settings.connectMidi = connectMidi
        settings.bendRangeSemitones = bendRange
    }

    func validate() throws {
        if let oscPort, !(1...65535).contains(oscPort) {
            throw ValidationError("--osc-port \(oscPort) must be a UDP port from 1 to 65535")
        }
        guard !oscHost.isEmpty else { throw ValidationError("--osc-host must name an address, e.g. 127.0.0.1") }
        try NodeSettings.validate([.bendRange], apply)
    }
}
