import Foundation
import Testing
import ToneJack

/// `ProcessBridge.reniceCallingThreadOnce`: the report threads' renice
/// (NodeSupervisor) touches only the calling thread, and only once per thread.
@Suite("Renicing the calling thread once")
struct ThreadReniceTests {
    /// The nice value of the calling thread (Linux: a thread is a task of its
    /// own), field 19 of /proc/thread-self/stat.
    private static func niceOfThisThread() -> Int32 {
        let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
        // Fields after the command's closing parenthesis start at field 3.
        let fields = stat[(stat.lastIndex(of: ")").map { stat.index(after: $0) } ?? stat.endIndex)...].split(separator: " ")
        return fields.count > 16 ? Int32(fields[16]) ?? -100 : -100
    }

    /// Runs `body` on a fresh thread and returns what it returned.
    private static func onFreshThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.value = body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private final class Box<T>: @unchecked Sendable { var value: T? }

    @Test("the first call sets the thread's nice value, later calls on it change nothing, other threads keep theirs")
    func once() {
        let before = Self.niceOfThisThread()
        let seen = Self.onFreshThread { () -> [Int32] in
            let start = Self.niceOfThisThread()
            let first = ProcessBridge.reniceCallingThreadOnce(start + 5)
            let afterFirst = Self.niceOfThisThread()
            let second = ProcessBridge.reniceCallingThreadOnce(start + 7)
            return [start, first ? 1 : 0, afterFirst, second ? 1 : 0, Self.niceOfThisThread()]
        }
        #expect(seen[1] == 1 && seen[3] == 1)
        #expect(seen[2] == min(19, seen[0] + 5), "\(seen)")
        #expect(seen[4] == seen[2], "a second call on the same thread leaves it: \(seen)")
        // A fresh thread is reniced by its own first call, and this one never was.
        let other = Self.onFreshThread { () -> [Int32] in
            let start = Self.niceOfThisThread()
            _ = ProcessBridge.reniceCallingThreadOnce(start + 7)
            return [start, Self.niceOfThisThread()]
        }
        #expect(other[1] == min(19, other[0] + 7), "\(other)")
        #expect(Self.niceOfThisThread() == before)
    }
}
