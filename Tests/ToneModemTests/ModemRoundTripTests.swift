import Foundation
import Testing
import ToneDSP
import ToneModem
import ToneTestSupport

@Suite("Modem round trips")
struct ModemRoundTripTests {
    @Test("every profile decodes its own clean transmission at 44.1, 48 and 96 kHz",
          arguments: ModemProfile.allCases, [44_100.0, 48_000, 96_000])
    func cleanRoundTrip(profile: ModemProfile, sampleRateHz: Double) throws {
        let modulator = try ModemModulator(profile: profile, sampleRateHz: sampleRateHz)
        let message = Array("Hello from ToneNode, 32 bytes ok".utf8)
        let signal = [Float](repeating: 0, count: 1234) + (try modulator.render(message: message, messageID: 0xBEEF))
            + [Float](repeating: 0, count: 777)
        let events = try ModemChannel.receive(signal, sampleRateHz: sampleRateHz, profiles: [profile])
        let messages = ModemChannel.messages(events)
        #expect(messages.count == 1, "events: \(events)")
        let received = try #require(messages.first)
        #expect(received.bytes == message)
        #expect(received.profile == profile)
        #expect(received.snrDB > 25, "clean channel SNR \(received.snrDB)")
        let expectedTime = (1234 + modulator.paddingSeconds * sampleRateHz) / sampleRateHz
        #expect(abs(received.timeSeconds - expectedTime) < 0.0005)
    }
}
