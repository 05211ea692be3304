import Foundation
import Synchronization
import ToneCore
import ToneDSP
import ToneModem
import ToneEngine

/// The answers `receive --profile cable` sends on its `out` in a session:
/// queued by the command's task (`send`), rendered and played one after
/// another by one task per node (`play(on:)`, cancelled when the node goes;
/// the engine's queue has one producer). The JACK thread only copies them.
/// Any thread.
final class CableAnswerQueue: Sendable {
    private let queued = Mutex<[CableSessionMessage]>([])
    private let digestsPlayed = Atomic<Int>(0)

    /// Answers carrying the file's digest that have left the port.
    var digestAnswersPlayed: Int { digestsPlayed.load(ordering: .relaxed) }

    func send(_ message: CableSessionMessage) { queued.withLock { $0.append(message) } }

    /// Plays what is queued on `playback`'s `out` until the task is cancelled.
    func play(on playback: NodePlayback) async {
        let peak = Float(pow(10, Parameters.Message.level.defaultValue / 20))
        guard let modulator = try? CableModulator(sampleRateHz: playback.sampleRateHz, plan: CableSessionMessage.controlPlan,
                                                  peakLevel: peak) else { return }
        while !Task.isCancelled {
            let next: CableSessionMessage? = queued.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let message = next else {
                try? await Task.sleep(for: .milliseconds(10))
                continue
            }
            guard let samples = try? modulator.render(message: message.encoded),
                  await playback.play(samples, shouldStop: { Task.isCancelled }) else { continue }
            if case .acknowledgement(let answer) = message, answer.isComplete { digestsPlayed.add(1, ordering: .relaxed) }
        }
    }
}
