import Testing
import ToneJack
@testable import ToneEngine

/// `TroubleNotices`: what the worker says about xruns, overflows and the callback profile, and when.
@Suite("TroubleNotices")
struct TroubleNoticesTests {
    private static let second: UInt64 = 1_000_000_000

    private static func said(_ event: NodeEvent?) -> String? { event.map(PublishedBatches.describe) }

    private static let profile = CallbackProfile(count: 42, totalNanoseconds: 0, worstNanoseconds: 0, bins: [0],
                                                 periodFrames: 256, sampleRateHz: 48000)

    @Test("trouble is said when the xruns or the overflows change, with the dropped frames of then; dropped frames alone wait")
    func trouble() {
        var notices = TroubleNotices(profiles: false, nowNs: 0)
        #expect(Self.said(notices.trouble((0, 0, 0))) == nil, "nothing yet")
        #expect(Self.said(notices.trouble((2, 0, 0))) == "trouble 2 0 0")
        #expect(Self.said(notices.trouble((2, 0, 0))) == nil, "said once")
        #expect(Self.said(notices.trouble((2, 0, 512))) == nil, "dropped frames alone")
        #expect(Self.said(notices.trouble((2, 1, 768))) == "trouble 2 1 768")
        #expect(Self.said(notices.trouble((3, 1, 768))) == "trouble 3 1 768")
    }

    @Test("without profiling, no profile is ever asked for")
    func noProfiling() {
        var notices = TroubleNotices(profiles: false, nowNs: 0)
        #expect(!notices.profiles)
        var asked = 0
        #expect(notices.profile(nowNs: 100 * Self.second) { asked += 1; return Self.profile } == nil)
        #expect(asked == 0)
    }

    @Test("a profile every 10 s from the start; asked for only when due; none to say leaves it due")
    func profileEveryTenSeconds() {
        let start = 7 * Self.second
        var notices = TroubleNotices(profiles: true, nowNs: start)
        #expect(notices.profiles)
        var asked = 0
        func profile(at nowNs: UInt64, have: Bool = true) -> String? {
            Self.said(notices.profile(nowNs: nowNs) { asked += 1; return have ? Self.profile : nil })
        }
        #expect(profile(at: start + 10 * Self.second - 1) == nil)
        #expect(asked == 0, "not due: the histogram is not copied")
        #expect(profile(at: start + 10 * Self.second) == "profile 42")
        #expect(profile(at: start + 15 * Self.second) == nil)
        #expect(profile(at: start + 20 * Self.second, have: false) == nil)
        #expect(profile(at: start + 20 * Self.second + 1) == "profile 42", "still due after a nil")
        #expect(profile(at: start + 30 * Self.second) == nil, "the next interval counts from the last said")
        #expect(asked == 3)
    }
}
