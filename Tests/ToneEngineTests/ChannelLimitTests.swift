import Testing
import ToneCore
import ToneDSP
import ToneJack

/// The channel limit is written once in Swift (`AudioChannels.maximum`, which
/// the `--channels` declarations take) and once in C (`TN_MAX_CHANNELS`, the
/// bridge's port arrays), which cannot read Swift: this is where they meet.
@Suite("Channel limit")
struct ChannelLimitTests {
    @Test("the JACK bridge carries as many channels as the parameters declare")
    func bridgeCarriesTheDeclaredChannels() {
        #expect(ProcessBridge.maximumChannels == AudioChannels.maximum)
        #expect(Parameters.channels.range?.upperBound == Double(ProcessBridge.maximumChannels))
        #expect(Parameters.Measure.channels.range?.upperBound == Double(ProcessBridge.maximumChannels))
    }
}
