#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spectra of a whole signal for pictures: the average spectrum (Welch) and a
/// spectrogram, both in dBFS scaled so a full-scale sine's peak reads 0 dBFS.
///
/// Offline (worker / main thread).
public enum SpectrumEstimate {
    /// Hann window of `size` and its sum (coherent gain × size).
    static func hann(_ size: Int) -> (window: [Float], sum: Double) {
        let window = CosineSumWindow.hann.values(size: size, sampling: .periodic).map { Float($0) }
        return (window, window.reduce(0.0) { $0 + Double($1) })
    }

    /// The largest power of two not above `count`, within 256…`limit`; nil below 256.
    public static func fftSize(for count: Int, limit: Int) -> Int? {
        guard count >= 256 else { return nil }
        var size = 256
        while size * 2 <= min(count, limit) { size *= 2 }
        return size
    }

    /// Welch average: Hann frames of `fftSize`, half overlapping. Returns
    /// level in dBFS for bins `0 … fftSize/2` (bin k at `k·rate/fftSize` Hz).
    public static func averageSpectrumDBFS(_ samples: [Float], fftSize: Int) -> [Double] {
        guard fftSize >= 2, samples.count >= fftSize, let fft = RealFFT(size: fftSize, planning: .estimate) else { return [] }
        let (window, sum) = hann(fftSize)
        var total = [Double](repeating: 0, count: fftSize / 2 + 1)
        let power = UnsafeMutablePointer<Double>.allocate(capacity: fftSize / 2 + 1)
        defer { power.deallocate() }
        var frames = 0
        var start = 0
        while start + fftSize <= samples.count {
            for n in 0..<fftSize { fft.input[n] = samples[start + n] * window[n] }
            fft.powerSpectrum(into: power)
            for k in 0...(fftSize / 2) { total[k] += power[k] }
            frames += 1
            start += fftSize / 2
        }
        let scale = 4 / (sum * sum) / Double(frames)   // |X|·2/Σw is the sine's peak amplitude
        return total.map { 10 * log10(max($0 * scale, 1e-30)) }
    }

    /// A spectrogram of at most `maxColumns` Hann frames of `fftSize`
    /// (hop at least a quarter frame). `result[column][k]` in dBFS; column
    /// `c` is centred at `(c·hop + fftSize/2)/rate` seconds.
    public static func spectrogramDBFS(_ samples: [Float], fftSize: Int, maxColumns: Int) -> (columns: [[Double]], hop: Int) {
        guard fftSize >= 2, samples.count >= fftSize, let fft = RealFFT(size: fftSize, planning: .estimate) else { return ([], 1) }
        let (window, sum) = hann(fftSize)
        let available = samples.count - fftSize
        let hop = max(fftSize / 4, (available + maxColumns - 1) / max(1, maxColumns), 1)
        let power = UnsafeMutablePointer<Double>.allocate(capacity: fftSize / 2 + 1)
        defer { power.deallocate() }
        let scale = 4 / (sum * sum)
        var columns: [[Double]] = []
        var start = 0
        while start + fftSize <= samples.count && columns.count < maxColumns {
            for n in 0..<fftSize { fft.input[n] = samples[start + n] * window[n] }
            fft.powerSpectrum(into: power)
            columns.append((0...(fftSize / 2)).map { 10 * log10(max(power[$0] * scale, 1e-30)) })
            start += hop
        }
        return (columns, hop)
    }
}
