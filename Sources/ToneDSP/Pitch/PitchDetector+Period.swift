extension PitchDetector {
    /// McLeod's peak picking on the NSDF; nil when nothing is clear enough.
    ///
    /// With a decimated NSDF its key maxima are the candidates; the tops of
    /// those that could be chosen, the parabola and the clarity are measured
    /// on the full-rate frame (`climb`, `fullRate`), so the period keeps the
    /// full rate's precision and the clarity gate its meaning.
    func findPeriod(energy: Double) -> (lag: Double, clarity: Double)? {
        let d = nsdf.decimation
        nsdf.compute(energy: nsdf.load(singles))
        let values = nsdf.values
        // Decimated: one lag more, so that a lobe whose top is the last decimated lag of the range
        // (a full-rate top up to d − 1 lags inside it) is seen to turn down and counts.
        let first = lags.lowerBound / d, last = (lags.upperBound + d - 1) / d + (d > 1 ? 1 : 0)
        // Key maxima: the highest point of each positive lobe after the first negative zero crossing.
        // `!(v > 0)` rather than `v <= 0`, so that a NaN cannot stall the walk.
        var lag = 1
        while lag <= last && values[lag] > 0 { lag += 1 }
        var best = -1.0
        var keyCount = 0
        while lag <= last {
            while lag <= last && !(values[lag] > 0) { lag += 1 }
            var top = -1, topValue = -2.0
            while lag <= last && values[lag] > 0 {
                if values[lag] > topValue { topValue = values[lag]; top = lag }
                lag += 1
            }
            // A lobe cut off by the end of the range counts only if it already turned down.
            if top >= 0 && top < last && top >= first {
                precondition(keyCount < keyLagCapacity)    // distinct lags below `last` ≤ upper bound + 1: never fails
                keyLags[keyCount] = top
                keyCount += 1
                best = max(best, topValue)
            }
        }
        let keyLags = UnsafeBufferPointer(start: self.keyLags, count: keyCount)
        var a: Double, b: Double, c: Double, top: Int
        if d == 1 {
            guard best >= configuration.clarityMin else { return nil }
            let threshold = configuration.keyMaximumFraction * best
            guard let chosen = keyLags.first(where: { values[$0] >= threshold }) else { return nil }
            (a, b, c, top) = (values[chosen - 1], values[chosen], values[chosen + 1], chosen)
        } else {
            // The averaged frame lacks the band above its rate (a noisy pluck's
            // attack, say), so its lobes are not the full rate's: the choice is
            // made on the full-rate tops of the lobes that could matter. The
            // highest is the higher of the two highest lobes' (a periodic
            // frame's lobes are all about as high); then the first lobe within
            // `margin` of the threshold whose full-rate top reaches it.
            let margin = 0.15
            guard best >= configuration.clarityMin - margin else { return nil }
            // Earlier lobes win ties within `tie`: a periodic frame's first lobe is then one of the two.
            let tie = 0.01
            var first = -1, second = -1
            for k in keyLags {
                if first < 0 || values[k] > values[first] + tie {
                    second = first
                    first = k
                } else if second < 0 || values[k] > values[second] + tie {
                    second = k
                }
            }
            let high = climb(from: first, energy: energy)
            // The second lobe's top cannot change the choice when the highest
            // lobe is also the earliest and its full-rate top already reaches
            // the highest threshold any second lobe could set (the NSDF is at
            // most 1; `ceiling` allows for the single-precision sums): then
            // its climb, a pass over the frame, is skipped. A periodic frame's
            // usual case; the reading is the same either way.
            let ceiling = configuration.keyMaximumFraction * max(1 + 1e-5, high.b)
            let settled = keyLags.first == first && high.b >= ceiling && values[first] >= ceiling - margin
                && high.b >= configuration.clarityMin
            let next = second >= 0 && !settled ? climb(from: second, energy: energy) : high
            let bestFull = max(high.b, next.b)
            guard bestFull >= configuration.clarityMin else { return nil }
            let threshold = configuration.keyMaximumFraction * bestFull
            var chosen = high.b >= next.b ? high : next
            for k in keyLags where values[k] >= threshold - margin {
                let lobe = k == first ? high : k == second ? next : climb(from: k, energy: energy)
                if lobe.b >= threshold {
                    chosen = lobe
                    break
                }
            }
            (a, b, c, top) = (chosen.a, chosen.b, chosen.c, chosen.top)
        }
        // Parabola through the peak and its neighbours.
        let denominator = a - 2 * b + c
        let offset = denominator < 0 ? min(max(0.5 * (a - c) / denominator, -0.5), 0.5) : 0
        let clarity = b - 0.25 * (a - c) * offset
        guard clarity >= configuration.clarityMin else { return nil }
        return (Double(top) + offset, clarity)
    }

    /// A lobe's top at the full rate: its lag and the NSDF there (`b`) and at its neighbours.
    struct Lobe {
        var top: Int
        var a: Double, b: Double, c: Double
    }

    /// Climbs from the decimated lag `k` to the full-rate top of its lobe, at most a decimated lag each way.
    func climb(from k: Int, energy: Double) -> Lobe {
        let d = nsdf.decimation
        let low = max(2, lags.lowerBound - d), high = min(configuration.frameSize / 2, lags.upperBound + d)
        var top = min(max(k * d, low), high)
        var (a, b, c) = fullRate(around: top, energy: energy)
        for _ in 0..<d {
            if a > b && top > low {
                top -= 1
                (b, c) = (a, b)
                a = fullRate(lag: top - 1)
            } else if c > b && top < high {
                top += 1
                (a, b) = (b, c)
                c = fullRate(lag: top + 1)
            } else {
                break
            }
        }
        return Lobe(top: top, a: a, b: b, c: c)
    }

    /// The NSDF of the full-rate frame at one lag (`0 < lag < frameSize`).
    func fullRate(lag: Int) -> Double {
        let x = singles, count = configuration.frameSize - lag
        var rs = 0.0, ms = 0.0
        var n = 0
        // Single-precision lanes, summed into double precision every block.
        while n < count {
            let end = min(count, n + Self.block)
            var r = SIMD4<Float>(), m = SIMD4<Float>()
            while n + 4 <= end {
                let u = UnsafeRawPointer(x + n).loadUnaligned(as: SIMD4<Float>.self)
                let v = UnsafeRawPointer(x + n + lag).loadUnaligned(as: SIMD4<Float>.self)
                r += u * v
                m += u * u + v * v
                n += 4
            }
            rs += Double(r.sum()); ms += Double(m.sum())
            while n < end {
                let u = Double(x[n]), v = Double(x[n + lag])
                rs += u * v; ms += u * u + v * v
                n += 1
            }
        }
        return ms > 1e-30 ? 2 * rs / ms : 0
    }

    /// Samples summed in single precision before a double-precision sum.
    static var block: Int { 256 }

    /// The full-rate NSDF at `lag − 1`, `lag` and `lag + 1` in one pass (`1 < lag < frameSize − 1`);
    /// `energy` is the frame's `Σ x²`.
    func fullRate(around lag: Int, energy: Double) -> (Double, Double, Double) {
        let x = singles, w = configuration.frameSize, count = w - lag - 1
        // r over the n all three lags share; m = Σ x[n]² + x[n+τ]² over the same n.
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, head = 0.0
        var n = 0
        while n < count {
            let end = min(count, n + Self.block)
            var r0 = SIMD4<Float>(), r1 = SIMD4<Float>(), r2 = SIMD4<Float>(), heads = SIMD4<Float>()
            while n + 4 <= end {
                let u = UnsafeRawPointer(x + n).loadUnaligned(as: SIMD4<Float>.self)
                r0 += u * UnsafeRawPointer(x + n + lag - 1).loadUnaligned(as: SIMD4<Float>.self)
                r1 += u * UnsafeRawPointer(x + n + lag).loadUnaligned(as: SIMD4<Float>.self)
                r2 += u * UnsafeRawPointer(x + n + lag + 1).loadUnaligned(as: SIMD4<Float>.self)
                heads += u * u
                n += 4
            }
            s0 += Double(r0.sum()); s1 += Double(r1.sum()); s2 += Double(r2.sum()); head += Double(heads.sum())
            while n < end {
                let u = Double(x[n])
                s0 += u * Double(x[n + lag - 1]); s1 += u * Double(x[n + lag]); s2 += u * Double(x[n + lag + 1])
                head += u * u
                n += 1
            }
        }
        // Σ x[n]² for n ≥ lag + 1 (the shifted partners): the energy less the first lag + 1.
        var tail = energy
        n = 0
        while n <= lag {
            let end = min(lag + 1, n + Self.block)
            var heads = SIMD4<Float>()
            while n + 4 <= end {
                let v = UnsafeRawPointer(x + n).loadUnaligned(as: SIMD4<Float>.self)
                heads += v * v
                n += 4
            }
            tail -= Double(heads.sum())
            while n < end { tail -= Double(x[n]) * Double(x[n]); n += 1 }
        }
        // Lag + 1: n < count with partners from lag + 1. Lag: one more term each side.
        let p = Double(x[count]), q = Double(x[lag]), o = Double(x[lag - 1]), pp = Double(x[count + 1])
        s1 += p * Double(x[count + lag])
        s0 += p * Double(x[count + lag - 1]) + pp * Double(x[count + lag])
        let m2 = head + tail
        let m1 = m2 + p * p + q * q
        let m0 = m1 + pp * pp + o * o
        let f = { (r: Double, m: Double) in m > 1e-30 ? 2 * r / m : 0 }
        return (f(s0, m0), f(s1, m1), f(s2, m2))
    }
}
