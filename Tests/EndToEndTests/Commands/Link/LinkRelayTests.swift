import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    /// zita-njbridge from A to B through a seeded UDP relay (delay 1 ms,
    /// ±0.3 ms jitter in order), B looping back directly. Short mode (CI,
    /// about 40 s): a +2 ms step, then three 30 ms bursts of dropped
    /// datagrams. Long mode (`TONENODE_LINK_RELAY=1`, about 80 s): steps of
    /// +5 ms and −3 ms, then bursts of 10, 30 and 100 ms. The relay's seed
    /// is `TONENODE_LINK_RELAY_SEED` (default 15), reported with the figures.
    @Suite("tonenode link against a relay that delays, jitters and drops (zita-njbridge)", .enabled(if: ZitaLoop.isInstalled))
    struct LinkRelayTests {
        static let environment = ProcessInfo.processInfo.environment
        static let isLong = environment["TONENODE_LINK_RELAY"] == "1"

        /// Readings so far that carry the probe, in order: (time s, latency frames).
        static func latencies(_ meter: LiveCommand) -> [(time: Double, frames: Double)] {
            linkReadings(meter).compactMap { reading in
                (reading["latency_frames"] as? Double).map { (reading["time_s"] as? Double ?? 0, $0) }
            }
        }

        /// The latency once the bridge holds still: the mean of the last
        /// `window` readings (5 s) after reading `readingIndex`, when they lie
        /// within 3 frames of each other and the means of the window's two
        /// halves differ by less than 0.5 frame. Nil when it has not held
        /// still within `timeoutSeconds`. Settled, zita-n2j's loop still
        /// wanders by ±1 frame over 10–15 s (a fresh-clone CI run,
        /// 2026-11-26: 2069.5…2071.7 for 90 s), which a 1-frame bound never
        /// passed; its approach after a step is what the caller waits out.
        static func steadyLatency(_ meter: LiveCommand, after readingIndex: Int, window: Int = 15,
                                  timeoutSeconds: Double) -> Double? {
            let mean = { (part: ArraySlice<Double>) in part.reduce(0, +) / Double(part.count) }
            var steady: Double?
            _ = meter.waitUntil(timeoutSeconds: timeoutSeconds) { meter in
                let frames = ArraySlice(latencies(meter).dropFirst(readingIndex).map(\.frames).suffix(window))
                guard frames.count == window, let low = frames.min(), let high = frames.max(), high - low < 3,
                      abs(mean(frames.prefix(window / 2)) - mean(frames.suffix(window / 2))) < 0.5 else { return false }
                steady = mean(frames)
                return true
            }
            return steady
        }

        /// The mean latency over the first `seconds` of readings after
        /// reading `readingIndex` (by the link's own clock, `time_s`); nil
        /// when they did not come within `timeoutSeconds`.
        static func meanLatency(_ meter: LiveCommand, after readingIndex: Int, seconds: Double,
                                timeoutSeconds: Double) -> Double? {
            var mean: Double?
            _ = meter.waitUntil(timeoutSeconds: timeoutSeconds) { meter in
                let readings = latencies(meter).dropFirst(readingIndex)
                guard let first = readings.first, let last = readings.last, last.time - first.time >= seconds else {
                    return false
                }
                let span = readings.filter { $0.time - first.time <= seconds }.map(\.frames)
                mean = span.reduce(0, +) / Double(span.count)
                return true
            }
            return mean
        }

        @Test("every dropped burst is one dropout of its length; a delay step is a latency change of what the relay did (0.1 ms)")
        func relay() throws {
            let seed = UInt64(Self.environment["TONENODE_LINK_RELAY_SEED"] ?? "") ?? 15
            let burstsMs: [Double] = Self.isLong ? [10, 30, 100] : [30, 30, 30]
            let stepsMs: [Double] = Self.isLong ? [5, -3] : [2]
            let (forward, back) = ZitaLoop.ports()
            let relayPort = back + 1
            var plan = UDPRelay.Plan()
            plan.delayMs = 1
            plan.jitterMs = 0.3
            plan.seed = seed
            let relay = try UDPRelay(listenPort: relayPort, targetPort: forward, plan: plan)
            defer { relay.stop() }
            let loop = try ZitaLoop(periodA: 256, periodB: 256, forwardPort: forward, returnPort: back, sendTo: relayPort)
            let meter = try LiveCommand(["link", "--json", "-s", loop.a.name, "-n", "meter", "--connect-out", "tx:in_1",
                                         "--connect-in", "rx:out_1", "--duration", "600", "--max-dropouts", "0"])
            defer { meter.stop() }
            // zita-n2j syncs with a 0.5 Hz loop for 4 s, then narrows it to
            // 0.05 Hz: the latency creeps on for 10 s or so (by 10 frames).
            #expect(meter.waitUntil(timeoutSeconds: 30) { (Self.latencies($0).last?.time ?? 0) >= 12 })
            var before = try #require(Self.steadyLatency(meter, after: Self.latencies(meter).count, timeoutSeconds: 60),
                                      "the bridge never held still: relay \(relay.log), link \(meter.stdout.suffix(600))")

            // Steps first: the bridge takes a while to hold still after a burst
            // (zita-n2j's loop moved by 10 frames over 5 s after three bursts).
            for step in stepsMs {
                relay.addDelay(step)
                let stepReading = Self.latencies(meter).count
                // zita-n2j's two 0.05 Hz loops take 15–25 s to bring a step
                // over, overshooting; a CI run read a flat stretch 10 s after
                // the step, 7 frames short. Only readings from 20 s on count,
                // and 15 s of them are averaged: under load the loop goes on
                // wandering by ±4 frames with a period of 20 s or so (a
                // fresh-clone CI run, 2026-11-28: 2084.7 at 20 s, 2075.5 at
                // 30 s, for 2081.4 expected), which a 5 s window caught at its
                // low (0.106 ms off) and 15 s averages to 0.05 ms.
                usleep(20_000_000)
                let recent = { Self.latencies(meter).suffix(40).map { String(format: "%.1f", $0.frames) } }
                let after = try #require(Self.meanLatency(meter, after: Self.latencies(meter).count, seconds: 15,
                                                          timeoutSeconds: 40),
                                         "no readings after \(step) ms: \(recent())")
                let epochs = relay.log.epochs.suffix(2).map(\.meanDelayMs)
                let relayDidMs = epochs[1] - epochs[0]
                let changeMs = (after - before) / 48
                report(String(format: "relay asked %+.1f ms, did %+.4f ms (mean delay %.4f → %.4f ms); link: latency %.3f → %.3f "
                              + "frames, change %+.4f ms (%d readings after the step)", step, relayDidMs, epochs[0], epochs[1],
                              before, after, changeMs, Self.latencies(meter).count - stepReading))
                #expect(abs(relayDidMs - step) < 0.05, "the relay did \(relayDidMs) ms for \(step) ms")
                #expect(abs(changeMs - relayDidMs) < 0.1,
                        Comment(rawValue: "latency change \(changeMs) ms; the relay added \(relayDidMs) ms; the last 40 s of "
                                + "readings: \(Self.latencies(meter).suffix(120).map { String(format: "%.1f", $0.frames) })"))
                before = after
            }

            // Bursts of lost datagrams, 1.5 s apart. Each one's time on the
            // link's clock: the end of the last reading when it began.
            let dropoutsBefore = linkReadings(meter).last?["dropouts"] as? Int ?? 0
            let receiverLine = loop.receiverOnB?.lineCount ?? 0
            let readingLine = linkReadings(meter).count
            var burstTimes: [Double] = []
            for burst in burstsMs {
                burstTimes.append(linkReadings(meter).last?["time_s"] as? Double ?? 0)
                relay.drop(forSeconds: burst / 1000)
                usleep(1_500_000)
            }
            usleep(1_000_000)
            let dropoutsAfter = linkReadings(meter).last?["dropouts"] as? Int ?? 0
            let dropped = relay.log.droppedPerWindow
            report("relay (seed \(seed)) dropped \(dropped) datagrams in bursts of \(burstsMs) ms; link counted "
                   + "\(dropoutsAfter - dropoutsBefore) dropouts (\(dropoutsBefore) before, while the bridge synced and stepped)")
            #expect(dropped.allSatisfy { $0 > 0 })

            // What B's zita-n2j said over the bursts: its --info line, every
            // quarter second (47 periods): periods, mean delay error (frames),
            // mean resampling ratio, least queue fill.
            let receiverSaid = (loop.receiverOnB?.lines(from: receiverLine) ?? []).joined(separator: " | ")
            let info = (loop.receiverOnB?.lines(from: receiverLine) ?? []).compactMap { line -> (error: Double, ratio: Double)? in
                let fields = line.split(separator: " ").compactMap { Double($0) }
                return fields.count >= 4 ? (fields[1], fields[2]) : nil
            }
            let worstErrorFrames = info.map { abs($0.error) }.max() ?? 0
            report(String(format: "zita-n2j on B over the bursts: delay error up to %.1f frames, resampling up to %.3f %% off "
                          + "(%d info lines of a quarter second)", worstErrorFrames,
                          100 * (info.map { abs($0.ratio - 1) }.max() ?? 0), info.count))
            let readingsSince = linkReadings(meter).dropFirst(readingLine).map { reading in
                ["time_s", "latency_frames", "gain_db", "residual_db", "dropouts"].map { key in
                    (reading[key] as? Double).map { String(format: "%.2f", $0) } ?? (reading[key] as? Int).map(String.init) ?? "-"
                }.joined(separator: "/")
            }.joined(separator: " ")
            // What the servers said of late clients (an xrun breaks the audio as a lost datagram does).
            let lateLines = [loop.a.name, loop.b.name].map { name in
                ((try? String(contentsOfFile: serverLogPath(name), encoding: .utf8)) ?? "").split(separator: "\n")
                    .filter { $0.contains("xrun") || $0.contains("late") || $0.contains("not finished") }.suffix(4)
                    .joined(separator: " / ")
            }
            let context = "zita-n2j on B said: \(receiverSaid); link readings (time/latency/gain/residual/dropouts): "
                + "\(readingsSince); link stderr: \(meter.stderr.suffix(400)); servers A, B: \(lateLines)"

            meter.signal(SIGTERM)
            let status = meter.exitStatus(timeoutSeconds: 10)
            #expect(status?.status == 2, "--max-dropouts 0 broken: status 2")
            let summary = meter.reports.last { $0["summary"] as? Bool == true }
            #expect(summary?["within_limits"] as? Bool == false)
            // Each burst is one dropout, starting from 0.2 s before its time
            // to 0.9 s after (a reading spans 0.34 s, the loop 0.04 s), as
            // long as the audio the relay threw away: zita-j2n sends a
            // 2-channel float period of 256 frames as two datagrams of 128
            // frames, and zita-n2j fills what is missing with silence. The
            // meter reads in 64-frame blocks (1.33 ms): a gap not on a block
            // boundary touches one block more (two where zita-n2j's resampler
            // smears its edges), or fewer: a block is broken only when its
            // residual passes 1/4 of the probe's power, and the resampler's
            // filter blends signal into both ends of the gap, so the end
            // blocks may not pass it (a CI run read all three bursts one block
            // short; a local one read 26.67 ms for 11 datagrams, 29.33 ms:
            // two blocks).
            let list = (summary?["dropout_list"] as? [[String: Any]] ?? []).dropFirst(dropoutsBefore).map {
                (time: $0["time_s"] as? Double ?? -1, ms: $0["duration_ms"] as? Double ?? -1)
            }
            let lostMs = dropped.map { Double($0 * 128) / 48 }
            report("dropouts \(list.map { String(format: "%.2f ms at %.2f s", $0.ms, $0.time) }) for bursts at "
                   + "\(burstTimes.map { String(format: "%.2f", $0) }) s; audio the relay dropped "
                   + "\(lostMs.map { String(format: "%.2f", $0) }) ms")
            var matched: Set<Int> = []
            for (burst, (at, lost)) in zip(burstTimes, lostMs).enumerated() {
                let found = list.indices.first { ((at - 0.2)...(at + 0.9)).contains(list[$0].time) }
                #expect(found != nil, Comment(rawValue: "burst \(burst) at \(at) s: no dropout from 0.2 s before to 0.9 s after; "
                                              + context))
                guard let found else { continue }
                matched.insert(found)
                #expect((-2.7...2.7).contains(list[found].ms - lost),
                        Comment(rawValue: "burst \(burst): a dropout of \(list[found].ms) ms for \(lost) ms dropped; " + context))
            }
            // A burst longer than zita-n2j's buffer sometimes makes it re-time
            // itself: its delay error jumps by tens to hundreds of frames and
            // its resampler runs 0.1–0.5 % off for seconds (the path reading
            // follows that), and as it starts the audio can break again, away
            // from the burst. That is the bridge's own glitch, said here; a
            // dropout the relay did not make, with the bridge steady, is not.
            let extra = list.indices.filter { !matched.contains($0) }.map { list[$0] }
            if !extra.isEmpty {
                report("dropouts of no burst: \(extra.map { String(format: "%.2f ms at %.2f s", $0.ms, $0.time) }), while zita-n2j "
                       + String(format: "re-timed itself (delay error up to %.1f frames)", worstErrorFrames))
            }
            #expect(extra.isEmpty || worstErrorFrames > 10,
                    Comment(rawValue: "dropouts of no burst \(extra) with zita-n2j's delay error under 10 frames; " + context))
        }
    }
}
