import EndToEndSupport
import Foundation
import Testing

/// zita-n2j's lock, read from its `--info` output (line-buffered: `stdbuf
/// -oL`): after "Receiving." it prints about four lines a second of queue
/// fill, delay error (frames), resampling ratio and a count. Locked: the last
/// `lines` ratios lie within `spread` of each other, so its resampler has
/// stopped hunting (a resync starts again from its new "Receiving.").
enum ZitaLock {
    static func isLocked(_ output: String, lines: Int = 4, spread: Double = 1e-4) -> Bool {
        let ratios = ratiosSinceReceiving(output)
        guard ratios.count >= lines, let low = ratios.suffix(lines).min(), let high = ratios.suffix(lines).max() else {
            return false
        }
        return high - low < spread
    }

    /// Waits (bounded) until every receiver (`stdbuf -oL zita-n2j --info`)
    /// has locked; a recorded failure naming what each said when it has not.
    static func waitForLock(_ receivers: [(end: String, command: LiveCommand)], timeoutSeconds: Double = 30,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline && !receivers.allSatisfy({ isLocked($0.command.stdout) }) { usleep(50_000) }
        for (end, receiver) in receivers where !isLocked(receiver.stdout) {
            Issue.record("zita-n2j \(end) did not lock within \(timeoutSeconds) s: \(receiver.stdout.suffix(300))",
                         sourceLocation: sourceLocation)
        }
    }

    /// The ratios printed since the last "Receiving.", in order.
    static func ratiosSinceReceiving(_ output: String) -> [Double] {
        guard let receiving = output.range(of: "Receiving.", options: .backwards) else { return [] }
        return output[receiving.upperBound...].split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count == 4 ? Double(fields[2]) : nil
        }
    }
}

@Suite("zita-n2j's lock from its --info lines")
struct ZitaLockTests {
    // Lines as zita-n2j 0.4.8 printed them on a loaded machine (2026-12-06).
    let hunting = "Syncing...\nReceiving.\n 46    7.625  0.999037      185\n 47    6.012  0.998545      167\n"
        + " 47   -2.408  0.999541      161\n 47   -7.809  1.000574      162\n"
    let settled = " 47   10.773  0.999783      220\n 47   11.501  0.999761      216\n 47   11.897  0.999744      213\n"
        + " 47   11.585  0.999732      209\n"

    @Test("hunting is not locked; four ratios within 100 ppm are; a resync starts again")
    func lock() {
        #expect(!ZitaLock.isLocked(""))
        #expect(!ZitaLock.isLocked("Waiting for info packet...\n"))
        #expect(!ZitaLock.isLocked(hunting))
        #expect(ZitaLock.isLocked(hunting + settled))
        #expect(ZitaLock.ratiosSinceReceiving(hunting + settled).count == 8)
        #expect(!ZitaLock.isLocked(hunting + settled + "Syncing...\nReceiving.\n 47 1.0 1.000010 200\n"))
    }
}
