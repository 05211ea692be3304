import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    /// The cable profile one way across zita-njbridge between two private
    /// jackd servers (A's `tx` zita-j2n → B's `rx` zita-n2j), whose resampler
    /// re-times the stream against B's clock: a ratio off by a few ppm that
    /// wanders (zita-n2j's `--info` read 1.000010–1.000011 here). Then the
    /// same bridge behind the seeded UDP relay, with a burst of datagrams dropped.
    @Suite("The cable profile across zita-njbridge")
    struct CableBridgeTests {
        @Test("zita-njbridge between two jackd servers: the file byte for byte through the resampler's drift")
        func zitaBridge() throws {
            try CablePathTransfer.require(["/usr/bin/zita-j2n", "/usr/bin/zita-n2j"])
            let (forward, back) = ZitaLoop.ports()
            let loop = try ZitaLoop(periodA: 256, periodB: 256, forwardPort: forward, returnPort: back)
            // zita-n2j locks its resampler in the first seconds.
            usleep(2_000_000)
            let ends = CablePathTransfer.Ends(sendServer: loop.a.name, into: "tx:in_1", receiveServer: loop.b.name, outOf: "rx:out_1")
            let transfer = try CablePathTransfer.run(ends, count: CablePathTests.size, seed: 325)
            let ratios = (loop.receiverOnB?.lines(from: 0) ?? []).compactMap { line -> Double? in
                let fields = line.split(separator: " ").compactMap { Double($0) }
                return fields.count >= 4 ? fields[2] : nil
            }
            report(String(format: "zita-n2j's resampling ratio on B: %.6f … %.6f (%d info lines)", ratios.min() ?? .nan,
                          ratios.max() ?? .nan, ratios.count))
            // Known open: the receiver tracks a constant offset (±300 ppm whole, CableTimingTests) but not a ratio that
            // wanders as zita-n2j's does on this loaded machine (0.999912…1.003288 in one run): every frame damaged,
            // nothing delivered (never a wrong byte, checked here).
            #expect(transfer.written == nil || transfer.isWhole, "a wrong file came out")
            withKnownIssue("the cable receiver does not yet follow zita-n2j's wandering resampling ratio", isIntermittent: true) {
                transfer.expectWhole("zita-njbridge, 256 frames/period on both")
            }
        }

        /// One way, no return path: a dropped burst loses the segment it hits.
        /// The loss is said in one line, the file is not written and receive
        /// exits 1; nothing wrong is delivered. (With the two-way session a
        /// burst costs a resend instead.)
        @Test("through the UDP relay with a 30 ms burst dropped: the segment it hit is lost and said, no file, exit 1")
        func relayBurst() throws {
            try CablePathTransfer.require(["/usr/bin/zita-j2n", "/usr/bin/zita-n2j"])
            let (forward, back) = ZitaLoop.ports()
            var plan = UDPRelay.Plan()
            plan.delayMs = 1
            plan.jitterMs = 0.3
            plan.seed = 32
            let relay = try UDPRelay(listenPort: back + 1, targetPort: forward, plan: plan)
            defer { relay.stop() }
            let loop = try ZitaLoop(periodA: 256, periodB: 256, forwardPort: forward, returnPort: back, sendTo: back + 1)
            usleep(2_000_000)
            let ends = CablePathTransfer.Ends(sendServer: loop.a.name, into: "tx:in_1", receiveServer: loop.b.name, outOf: "rx:out_1")
            // The burst 1.5 s after send starts: inside its first segment (2.9 s of audio).
            let burst = Thread {
                usleep(1_500_000)
                relay.drop(forSeconds: 0.03)
            }
            burst.start()
            let transfer = try CablePathTransfer.run(ends, count: CablePathTests.size, seed: 326, durationSeconds: 12)
            let dropped = relay.log.droppedPerWindow
            report("relay dropped \(dropped) datagram(s) in a 30 ms burst; receive said: "
                   + transfer.receiveStderr.split(separator: "\n").filter { $0.contains("lost") }.joined(separator: " | "))
            #expect(dropped.count == 1 && dropped.allSatisfy { $0 > 0 }, "\(dropped)")
            #expect(transfer.sendStatus == 0, "send: \(transfer.sendStderr)")
            #expect(transfer.written == nil, "a file came out of a transfer that lost a segment")
            #expect(transfer.receiveStatus == 1, "receive: \(transfer.receiveStderr)")
            // The lost segment in one line, with the count so far.
            let lost = transfer.receiveStderr.split(separator: "\n").filter { $0.contains("nothing delivered (1 lost so far)") }
            #expect(lost.count == 1, "receive: \(transfer.receiveStderr)")
            #expect(!transfer.receiveStderr.contains("all intact"), "receive: \(transfer.receiveStderr)")
        }
    }
}
