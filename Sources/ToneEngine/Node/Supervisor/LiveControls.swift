import Synchronization
import ToneCore

/// Control commands meet the running engine and the remembered settings here.
final class LiveControls: Sendable {
    private struct State {
        var settings: NodeSettings
        var engine: Engine?
    }
    private let state: Mutex<State>

    init(settings: NodeSettings) { state = Mutex(State(settings: settings, engine: nil)) }

    var settings: NodeSettings { state.withLock { $0.settings } }

    func attach(_ engine: Engine?) { state.withLock { $0.engine = engine } }

    @Sendable func apply(_ command: ControlCommand) throws(ControlCommand.Problem) {
        try state.withLock { (state: inout State) throws(ControlCommand.Problem) in
            let rate = state.engine?.sampleRateHz ?? .infinity
            let changed = try command.applied(to: state.settings, sampleRateHz: rate)
            // Settings wait for the next server; a one-shot cannot.
            if state.engine == nil, case .beep = command { throw ControlCommand.Problem("\(command): no JACK server right now; not played") }
            if state.engine == nil, case .sweep = command { throw ControlCommand.Problem("\(command): no JACK server right now; not played") }
            if let engine = state.engine, let generatorCommand = command.generatorCommand(settings: changed, sampleRateHz: rate) {
                guard engine.send(generatorCommand) else {
                    throw ControlCommand.Problem("the audio thread is not taking commands (queue full); '\(command)' dropped")
                }
            }
            state.settings = changed
        }
    }
}
