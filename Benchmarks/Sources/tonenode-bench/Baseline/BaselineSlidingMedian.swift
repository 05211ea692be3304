// Baseline copy (commit cb90cd7); see BaselineToneEstimator.swift.
/// The median of a window of bins that slides up a spectrum.
///
/// The window's values are kept sorted, so moving it by one bin is a binary
/// search and a short shift out and in, instead of a fresh sort: the
/// estimator can afford a noise floor for every peak of the spectrum.
///
/// Worker only; allocates once, at creation.
struct BaselineSlidingMedian: ~Copyable {
    private let sorted: UnsafeMutablePointer<Double>
    private let capacity: Int
    private var count = 0
    /// The bins the window holds now: `low…high`, empty when `high < low`.
    private var low = 0
    private var high = -1

    /// - Parameter capacity: the widest window that will be asked for.
    init(capacity: Int) {
        self.capacity = capacity
        sorted = .allocate(capacity: max(1, capacity))
    }

    deinit { sorted.deallocate() }

    /// The median of the window (upper median for an even count), nil when
    /// it holds fewer than `minimumCount` values.
    func median(minimumCount: Int) -> Double? {
        count >= max(1, minimumCount) ? sorted[count / 2] : nil
    }

    /// Moves the window to bins `newLow…newHigh` of `values` (empty when
    /// `newHigh < newLow`). Moving up by a bin costs one removal and one
    /// insertion; any other move refills the window.
    mutating func slide(to newLow: Int, _ newHigh: Int, of values: UnsafePointer<Double>) {
        precondition(newHigh - newLow < capacity, "window wider than the capacity")
        if newLow < low || newHigh < high || newLow > high {
            // Not an upward move of an overlapping window: start afresh.
            count = 0
            low = newLow
            high = newLow - 1
        }
        while low < newLow {
            remove(values[low])
            low += 1
        }
        while high < newHigh {
            high += 1
            insert(values[high])
        }
    }

    /// Empties the window.
    mutating func reset() {
        count = 0
        low = 0
        high = -1
    }

    // MARK: - Sorted storage

    /// First index whose value is not below `value`.
    private func lowerBound(_ value: Double) -> Int {
        var first = 0, last = count
        while first < last {
            let middle = (first + last) / 2
            if sorted[middle] < value { first = middle + 1 } else { last = middle }
        }
        return first
    }

    private mutating func insert(_ value: Double) {
        let index = lowerBound(value)
        // The window is a few dozen values: a plain shift beats a memmove call.
        var position = count
        while position > index {
            sorted[position] = sorted[position - 1]
            position -= 1
        }
        sorted[index] = value
        count += 1
    }

    private mutating func remove(_ value: Double) {
        let index = lowerBound(value)
        // safe: every value removed was inserted before, and the values are
        // finite (the estimator checks), so an equal one is at `index`.
        precondition(index < count && sorted[index] == value, "removing a value the window does not hold")
        for position in index..<(count - 1) { sorted[position] = sorted[position + 1] }
        count -= 1
    }
}
