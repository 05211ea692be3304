import ArgumentParser
import ToneCore

/// How the node is played from outside: MIDI on `midi_in`, OSC over UDP.
public struct ControlOptions: ParsableArguments {
    public init() {}

    @Option(name: [.customShort("O"), Parameters.oscPort.longName], parsing: .unconditional,
            help: Parameters.oscPort.argumentHelp)
    public var oscPort: Int?

    @Option(name: .customLong("osc-host"), help: ArgumentHelp(
        "Address the OSC socket binds to (0.0.0.0 or :: for every interface).", valueName: "address"))
    public var oscHost = "127.0.0.1"

    @Option(Parameters.connectMidi)
    public var connectMidi: [String]

    @Option(Parameters.bendRange, parsing: .unconditional)
    public var bendRange: Double

    public func apply(to settings: inout NodeSettings) {
        settings.connectMidi = connectMidi
        settings.bendRangeSemitones = bendRange
    }

    public func validate() throws {
        if let oscPort, !Parameters.oscPort.accepts(Double(oscPort)) {
            throw ValidationError("\(Parameters.oscPort.commandLineName) \(oscPort) must be a UDP port from \(Parameters.oscPort.rangeText())")
        }
        guard !oscHost.isEmpty else { throw ValidationError("--osc-host must name an address, e.g. 127.0.0.1") }
        try NodeSettings.validate([.bendRange], apply)
    }
}
