import EndToEndSupport
import Foundation
import Testing
import ToneTestSupport

extension JackServerTests {
    /// `send --profile cable --file` → `receive --profile cable -o` through
    /// real paths without a resampler, byte for byte, with the net rate (the
    /// figures of docs/messages/session.md, "Through real paths"). A tool that is not
    /// installed fails the test with its name (scripts/install-deps).
    @Suite("The cable profile through real paths")
    struct CablePathTests {
        /// Bytes per transfer: two segments of the file default plan (about 4.4 s of audio).
        static let size = 150_000

        @Test("jack_thru on a private jackd")
        func jackThru() throws {
            try CablePathTransfer.require(["/usr/bin/jack_thru"])
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let thru = try LiveCommand.jackTool("/usr/bin/jack_thru", server: server.name)
            defer { thru.stop() }
            try waitForPort("jack_thru:output_1", server: server.name)
            let ends = CablePathTransfer.Ends(sendServer: server.name, into: "jack_thru:input_1",
                                              receiveServer: server.name, outOf: "jack_thru:output_1")
            try CablePathTransfer.run(ends, count: Self.size, seed: 321).expectWhole("jack_thru, 256 frames/period")
        }

        /// x42-eq (fil4): +6 dB at 3 kHz and −9 dB at 12 kHz, one octave each;
        /// then x42-dpl, a look-ahead limiter, threshold −1 dBFS. send's peak
        /// level (−6 dBFS) after the EQ's boost stays under the threshold: the
        /// limiter only delays (its look-ahead). Engaged on the OFDM peaks it
        /// would change the signal's gain from sample to sample, noise that
        /// 65536-QAM (about 52 dB of SNR) cannot carry.
        @Test("an LV2 chain in jalv: an EQ (x42-eq, a boost and a cut) into a look-ahead limiter (x42-dpl)")
        func lv2Chain() throws {
            let eqURI = "http://gareus.org/oss/lv2/fil4#mono"
            let limiterURI = "http://gareus.org/oss/lv2/dpl#mono"
            if let missing = JalvHost.missing([eqURI, limiterURI]) {
                Issue.record("\(missing) (scripts/install-deps: jalv, lilv-utils, x42-plugins)")
                return
            }
            let server = try startServer(periodFrames: 256)
            defer { server.stop() }
            let eq = try JalvHost(name: "eq", uri: eqURI, server: server.name,
                                  controls: ["sec2": 1, "freq2": 3000, "gain2": 6, "q2": 1,
                                             "sec3": 1, "freq3": 12000, "gain3": -9, "q3": 1], firstOutput: "out")
            defer { eq.stop() }
            let limiter = try JalvHost(name: "dpl", uri: limiterURI, server: server.name, controls: ["threshold": -1],
                                       firstOutput: "out")
            defer { limiter.stop() }
            try jackConnect("eq:out", "dpl:in", server: server.name)
            // fil4 glides to its controls after it starts (MeasureJalvTests).
            usleep(1_000_000)
            let ends = CablePathTransfer.Ends(sendServer: server.name, into: "eq:in", receiveServer: server.name, outOf: "dpl:out")
            try CablePathTransfer.run(ends, count: Self.size, seed: 322)
                .expectWhole("jalv: x42-eq (+6 dB at 3 kHz, −9 dB at 12 kHz) → x42-dpl (threshold −1 dBFS)")
        }

        @Test("netjack2: a slave (jackd -d net) on the master's clock")
        func netJack() throws {
            try #require(NetJackLoop.isInstalled, "jack_load and jackd2's netmanager and net backend are not installed (jackd2)")
            let loop = try NetJackLoop(periodFrames: 256)
            let ends = CablePathTransfer.Ends(sendServer: loop.masterName, into: "slave:to_slave_1",
                                              receiveServer: loop.slaveName, outOf: "system:capture_1")
            try CablePathTransfer.run(ends, count: Self.size, seed: 323).expectWhole("netjack2, 256 frames/period")
        }

        @Test("JackTrip hub, 16 and 24 bits on the wire", arguments: [24, 16])
        func jackTrip(bits: Int) throws {
            try CablePathTransfer.require(["/usr/bin/jacktrip"])
            let loop = try JackTripLoop(mode: .hub, periodFrames: 256, bits: bits)
            let ends = CablePathTransfer.Ends(sendServer: loop.a.name, into: loop.sendOnA[0],
                                              receiveServer: loop.b.name, outOf: "jtB:receive_1")
            try CablePathTransfer.run(ends, count: Self.size, seed: 324).expectWhole("JackTrip hub -b \(bits), 256 frames/period")
        }
    }
}
