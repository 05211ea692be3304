import Foundation

/// Runs each body on its own `Thread` (real OS threads, not tasks, like the
/// JACK thread and the worker) and returns when all have finished.
func runOnThreads(_ bodies: [@Sendable () -> Void]) {
    let finished = DispatchSemaphore(value: 0)
    for body in bodies {
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in bodies { finished.wait() }
}

/// Lets the other thread run while this one waits for it.
func yieldToOtherThread() { sched_yield() }
