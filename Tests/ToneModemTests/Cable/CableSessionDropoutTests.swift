import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

/// The session over a simulated path with seeded 30 ms mutes, frame by frame:
/// a mute over a transmission's sync, training or header (or a segment's
/// first frame, which holds the segment's fields) loses it; over a data frame,
/// that frame. What arrives goes to the receiver as the stream receiver would hand it.
@Suite("Cable session: the state machines over a simulated lossy channel, frame by frame")
struct CableSessionDropoutTests {
    static let rate = 48_000.0
    static let geometry = CableGeometry(sampleRateHz: rate)!

    struct Outcome {
        var confirmed = false
        var failure: String?
        var delivered: [[UInt8]] = []
        var seconds = 0.0
        /// File bytes sent in segments, resends included.
        var sentBytes = 0
        /// File bytes of segments that did not arrive: whole ones lost, or the damaged frames of one kept in part.
        var lostBytes = 0
        /// The plans the sender chose, in order.
        var plans: [CablePlan] = []
    }

    static func seconds(_ samples: Int) -> Double { Double(samples) / rate }

    /// Runs one session at `snrDB`, a 30 ms mute every `muteIntervalSeconds` (its phase seeded); the return path clean.
    static func run(file: [UInt8], snrDB: Double, muteIntervalSeconds: Double?, seed: UInt64) throws -> Outcome {
        var random = SeededRandom(seed: seed)
        let phase = muteIntervalSeconds.map { Double(random.next() % 1000) / 1000 * $0 } ?? 0
        func muted(_ span: Range<Double>) -> Bool {
            guard let interval = muteIntervalSeconds else { return false }
            let first = ((span.lowerBound - phase - 0.030) / interval).rounded(.up)
            return phase + first * interval < span.upperBound
        }
        let carriers = geometry.carrierCount
        var sender = CableSessionSender(transferID: 0xD0D0, file: file, digest: CableSessionTests.digest(file), carrierCount: carriers)
        var receiver = CableSessionReceiver(digest: CableSessionTests.digest)
        let snr = [Double](repeating: snrDB, count: CablePlan.bandCount)
        var plan = CableSessionMessage.controlPlan
        var outcome = Outcome()
        var now = 0.0
        var pending = sender.start()
        while now < 600 {
            var answers: [CableSessionMessage] = []
            for action in pending {
                switch action {
                case .transmit(let message):
                    let messagePlan = if case .segment = message { plan } else { CableSessionMessage.controlPlan }
                    let payload = try CableModulator(sampleRateHz: rate, plan: messagePlan).payloadBytesPerFrame()
                    let bytes = message.encoded
                    let frames = (bytes.count + payload - 1) / payload
                    let start = now
                    let span = { (samples: Range<Int>) in (start + seconds(samples.lowerBound))..<(start + seconds(samples.upperBound)) }
                    now += seconds(geometry.symbolStart(CableGeometry.firstDataSymbol + frames * CablePlan.symbolsPerFrame)) + 0.1
                    let damaged = (0..<frames).filter { frame in
                        let first = CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame
                        return muted(span(geometry.symbolStart(first)..<geometry.symbolStart(first + CablePlan.symbolsPerFrame)))
                    }
                    let lostWhole = muted(span(0..<geometry.symbolStart(CableGeometry.firstDataSymbol)))
                    var replies: [CableSessionReceiver.Action] = []
                    if case .segment(let segment) = message {
                        outcome.sentBytes += segment.data.count
                        if lostWhole || damaged.first == 0 {
                            outcome.lostBytes += segment.data.count
                            replies = receiver.heard(nil, bandSNRdB: snr, lostToDropout: true)
                        } else if damaged.isEmpty {
                            replies = receiver.heard(message, bandSNRdB: snr)
                        } else {
                            // The intact frames, placed as `CableSegment.parts(of:)` places them.
                            var parts: [CableSegment] = []
                            for frame in 0..<frames where !damaged.contains(frame) {
                                let low = max(frame * payload, CableSegment.overheadBytes)
                                let high = min(bytes.count, (frame + 1) * payload)
                                let fileStart = segment.offset + low - CableSegment.overheadBytes
                                parts.append(CableSegment(transferID: segment.transferID, offset: fileStart, totalBytes: segment.totalBytes,
                                                          data: file[fileStart..<(fileStart + high - low)]))
                            }
                            outcome.lostBytes += segment.data.count - parts.reduce(0) { $0 + $1.data.count }
                            replies = receiver.heard(parts: parts, end: segment.offset + segment.data.count, bandSNRdB: snr,
                                                     lostToDropout: true)
                        }
                    } else if !lostWhole && damaged.isEmpty {
                        replies = receiver.heard(message, bandSNRdB: snr)
                    }
                    for reply in replies {
                        switch reply {
                        case .transmit(let answer): answers.append(answer)
                        case .delivered(let bytes): outcome.delivered.append(bytes)
                        case .closed: break
                        }
                    }
                case .usePlan(let chosen):
                    plan = chosen
                    outcome.plans.append(chosen)
                case .confirmed: outcome.confirmed = true
                case .failed(let line): outcome.failure = line
                }
            }
            if outcome.confirmed || outcome.failure != nil { break }
            pending = pending.isEmpty ? [] : sender.transmitted(now: now)
            for answer in answers {
                now += 0.3
                pending += sender.heard(answer, now: now)
            }
            if pending.isEmpty {
                now += 0.5
                pending = sender.tick(now: now)
            }
        }
        outcome.seconds = now
        return outcome
    }

    @Test("a 30 ms mute every 4 s or 10 s: confirmed, the file exact, resends carry only the bytes lost",
          arguments: [(4.0, UInt64(1)), (4, 2), (4, 3), (10, 4), (10, 5), (2, 6)])
    func mutes(intervalSeconds: Double, seed: UInt64) throws {
        let file = CableSessionTests.file(200_000, seed: seed)
        let clean = try Self.run(file: file, snrDB: 60, muteIntervalSeconds: nil, seed: seed)
        let outcome = try Self.run(file: file, snrDB: 60, muteIntervalSeconds: intervalSeconds, seed: seed)
        #expect(clean.confirmed && clean.lostBytes == 0)
        #expect(outcome.confirmed, "seed \(seed): \(outcome.failure ?? "")")
        #expect(outcome.delivered == [file])
        #expect(outcome.sentBytes <= file.count + outcome.lostBytes, "sent \(outcome.sentBytes), lost \(outcome.lostBytes)")
        // A dropout is not noise: the probe's plan all along.
        #expect(outcome.plans == clean.plans, "\(outcome.plans.count) plans")
        // A mute costs at most two frames and one more round: a resend of a frame or two, the poll and its answer
        // (about 1.4 s here against 6.7 s for the file): the issue's 50 % at one every 4 s; at one every 10 s, 80 %
        // (the issue's 85 % needs a round cheaper than the poll and its answer: not yet).
        let share = clean.seconds / outcome.seconds
        #expect(share >= (intervalSeconds >= 10 ? 0.8 : 0.5), "\(intervalSeconds) s: \(outcome.seconds) s against \(clean.seconds) s clean")
    }

    @Test("the answer says whether its losses were dropouts; a round lost whole to dropouts keeps the plan, one lost to noise adds margin")
    func dropoutOrNoise() throws {
        let answer = CableAcknowledgement(transferID: 5, totalBytes: 100, bandSNRdB: [Double](repeating: 40, count: CablePlan.bandCount),
                                          missing: [0..<100], digest: nil, lossesWereDropouts: true)
        #expect(CableAcknowledgement(decoding: answer.encoded) == answer)
        for toDropout in [true, false] {
            let file = CableSessionTests.file(50_000, seed: 9)
            var sender = CableSessionSender(transferID: 5, file: file, digest: CableSessionTests.digest(file),
                                            carrierCount: Self.geometry.carrierCount)
            var receiver = CableSessionReceiver(digest: CableSessionTests.digest)
            let snr = [Double](repeating: 40, count: CablePlan.bandCount)
            _ = sender.start()
            _ = sender.transmitted(now: 0)
            var round = receiver.heard(.probe(transferID: 5), bandSNRdB: snr).compactMap { action -> CableSessionMessage? in
                if case .transmit(let message) = action { return message } else { return nil }
            }
            let first = sender.heard(try #require(round.first), now: 1)
            let planned = sender.plan
            #expect(first.contains(.usePlan(planned)))
            // Every segment of the round lost; the poll heard.
            for action in first {
                if case .transmit(.segment) = action { _ = receiver.heard(nil, bandSNRdB: snr, lostToDropout: toDropout) }
            }
            _ = sender.transmitted(now: 2)
            round = receiver.heard(.poll(transferID: 5, totalBytes: file.count), bandSNRdB: snr).compactMap { action in
                if case .transmit(let message) = action { return message } else { return nil }
            }
            let next = sender.heard(try #require(round.first), now: 3)
            #expect(next.contains { if case .transmit(.segment) = $0 { true } else { false } })
            #expect((sender.plan == planned) == toDropout, "lost to \(toDropout ? "dropouts" : "noise")")
        }
    }
}
