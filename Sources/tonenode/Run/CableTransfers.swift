import Synchronization
import ToneDSP
import ToneModem
import ToneCommandLine
import ToneFileCommands

/// `run --receive-profile cable`: each input channel's cable transmissions
/// assembled as `receive` assembles them (`CableTransferOutput`, its progress
/// and losses on stderr, above the live view when there is one): a file's
/// line comes only when it is whole; a plain transmission is a message.
/// Taken on the worker's sink or, with a live view, on the main task: one at
/// a time either way.
final class CableTransfers: Sendable {
    private let json: Bool
    /// Where progress and losses go (stderr; above a live view).
    private let diagnostics: @Sendable (String) -> Void
    private let byChannel = Mutex<[Int: CableTransferOutput]>([:])

    init(json: Bool, diagnostics: @escaping @Sendable (String) -> Void = { Console.err($0) }) {
        self.json = json
        self.diagnostics = diagnostics
    }

    /// One line per channel whose transfer is left incomplete (at the end of the run).
    var incompleteLines: [String] {
        byChannel.withLock { transfers in
            transfers.keys.sorted().compactMap { channel in
                transfers[channel]?.incompleteSummary.map { transfers.count > 1 ? "[in_\(channel + 1)] " + $0 : $0 }
            }
        }
    }

    /// The line to print for what `reception` completed on `channel`, if anything.
    func take(_ reception: CableReception, channel: Int, timeSeconds: Double) -> String? {
        byChannel.withLock { transfers in
            var transfer = transfers[channel] ?? CableTransferOutput(json: json, diagnostics: diagnostics)
            defer { transfers[channel] = transfer }
            return transfer.take(reception, timeSeconds: timeSeconds)?.line
        }
    }
}
