import ArgumentParser
import Foundation
import ToneCore
import ToneDSP
import ToneAudioFile
import TonePlot

/// `--plot FILE.svg`: checked before anything runs, written in one go.
public enum PlotOption {
    public static func validate(_ path: String) throws {
        guard path.lowercased().hasSuffix(".svg") else {
            throw ValidationError("--plot writes SVG: give a file name ending in .svg, not '\(path)'")
        }
        // A directory that is not there ends the command before it measures, in the
        // one line every file-writing option gives (status 1, like a file it cannot read).
        try OutputFileProblem.requireWritable(path: path)
    }

    public static func write(_ svg: String, to path: String) throws {
        do {
            try svg.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            let reason = OutputFileProblem.check(path: path)?.description ?? error.localizedDescription
            throw AudioFileError.cannotWrite(path: path, reason: reason)
        }
    }
}

/// The frequency response of a measured chain, on a log-frequency axis.
public enum ResponsePlot {
    public static func svg(_ m: ChainMeasurement) -> String {
        let gains = m.response.map(\.gainDB).filter(\.isFinite)
        let high = max(6, ((gains.max() ?? 0) / 6).rounded(.up) * 6 + 3)
        let low = min(-24, ((gains.min() ?? 0) / 6).rounded(.down) * 6 - 3)
        var plot = LinePlot(
            title: String(format: "Frequency response: latency %.3f frames (%.3f ms), THD+N %.1f dB at %@ Hz",
                          m.latencyFrames, m.latencyMs, m.thdPlusNoiseDB, format(m.toneFrequencyHz)),
            xAxis: Axis(title: "frequency (Hz)", lower: m.sweepStartHz, upper: m.sweepEndHz, scale: .logarithmic),
            yAxis: Axis(title: "gain (dB)", lower: max(low, -120), upper: high),
            series: [.init(name: "gain", points: m.response.map { ($0.frequencyHz, $0.gainDB) })])
        plot.markers = [(m.toneFrequencyHz, String(format: "test tone %@ Hz: %+.2f dB", format(m.toneFrequencyHz), m.gainDB))]
        return plot.svg()
    }
}

/// `analyze --plot`: the file's average spectrum above its spectrogram (above the pitch track with `--mode pitch`).
public enum FilePlot {
    public static func svg(samples: [Float], sampleRateHz: Double, name: String, pitchTrack: [PitchTrackPlot.Point]? = nil,
                    a4Hz: Double = 440) -> String? {
        guard let spectrumSize = SpectrumEstimate.fftSize(for: samples.count, limit: 16384),
              let imageSize = SpectrumEstimate.fftSize(for: samples.count, limit: 2048) else { return nil }
        let nyquist = sampleRateHz / 2
        let lowHz = min(20, nyquist / 100)
        let width = 960.0
        var writer = SVGWriter(width: width, height: pitchTrack == nil ? 1040 : 1560)

        let spectrum = SpectrumEstimate.averageSpectrumDBFS(samples, fftSize: spectrumSize)
        let binHz = sampleRateHz / Double(spectrumSize)
        let points = spectrum.enumerated().dropFirst().map { (Double($0.offset) * binHz, $0.element) }
        let top = max(0, ((spectrum.max() ?? 0) / 10).rounded(.up) * 10)
        let floor = ((spectrum.min() ?? -160) / 10).rounded(.down) * 10 - 10
        let spectrumPlot = LinePlot(
            title: "Spectrum of \(name) (Hann \(spectrumSize), averaged)",
            xAxis: Axis(title: "frequency (Hz)", lower: lowHz, upper: nyquist, scale: .logarithmic),
            yAxis: Axis(title: "level (dBFS, sine peak = 0)", lower: min(top - 40, max(top - 160, floor)), upper: top),
            series: [.init(name: "level", points: points)])
        spectrumPlot.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 0, height: 500, rightMargin: 120))

        let (columns, hop) = SpectrumEstimate.spectrogramDBFS(samples, fftSize: imageSize, maxColumns: 600)
        let rows = 256
        let imageBinHz = sampleRateHz / Double(imageSize)
        let grid = columns.map { column in
            (0..<rows).map { row -> Double in
                // Loudest bin in the row's slice of the log-frequency axis.
                let f0 = lowHz * pow(nyquist / lowHz, Double(row) / Double(rows))
                let f1 = lowHz * pow(nyquist / lowHz, Double(row + 1) / Double(rows))
                let k0 = min(column.count - 1, Int((f0 / imageBinHz).rounded()))
                let k1 = min(column.count - 1, max(k0, Int((f1 / imageBinHz).rounded())))
                return column[k0...k1].max() ?? -300
            }
        }
        let seconds = Double(samples.count) / sampleRateHz
        let firstCentre = Double(imageSize / 2) / sampleRateHz
        let lastCentre = firstCentre + Double(max(0, columns.count - 1) * hop) / sampleRateHz
        let colorTop = max(0, ((columns.joined().max() ?? 0) / 10).rounded(.up) * 10)
        let timeAxis = Axis(title: "time (s)", lower: firstCentre, upper: max(lastCentre, firstCentre + 1e-3))
        let heatmap = Heatmap(
            title: String(format: "Spectrogram (Hann %d, hop %d, %.2f s)", imageSize, hop, seconds),
            xAxis: timeAxis,
            yAxis: Axis(title: "frequency (Hz)", lower: lowHz, upper: nyquist, scale: .logarithmic),
            colorTitle: "dBFS", colorLower: colorTop - 120, colorUpper: colorTop, values: grid)
        heatmap.draw(into: &writer, box: SVGWriter.plotBox(width: width, top: 520, height: 520, rightMargin: 120))
        if let pitchTrack {
            PitchTrackPlot.draw(pitchTrack, timeAxis: timeAxis, name: name, a4Hz: a4Hz, into: &writer,
                                box: SVGWriter.plotBox(width: width, top: 1040, height: 520, rightMargin: 120))
        }
        return writer.document()
    }
}

extension PlotOption {
    /// `dir/name.svg` → `dir/name-suffix.svg`: the picture of a second measurement next to the first.
    public static func sibling(of path: String, named suffix: String) -> String {
        String(path.dropLast(4)) + "-" + suffix + ".svg"
    }
}
