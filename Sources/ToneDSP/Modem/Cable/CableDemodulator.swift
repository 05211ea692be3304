#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one cable transmission from a whole recording (offline): finds the
/// chirp, estimates each carrier's gain, phase and noise from the two
/// training symbols (so a gain, an EQ or a delay in the path is undone),
/// reads the header, then decodes every frame (`CableDataCoder`: belief
/// propagation, then the uncoded levels) and reassembles the message.
/// It never delivers a byte it cannot vouch for: a frame whose CRC fails is
/// missing, and the message is delivered only whole, its CRC-32 matching.
public struct CableDemodulator {
    public let geometry: CableGeometry
    /// How far into the recording the chirp is looked for.
    public var searchSeconds = 10.0

    public init(sampleRateHz: Double) throws {
        guard let geometry = CableGeometry(sampleRateHz: sampleRateHz) else {
            throw CableModulator.SetupError.sampleRate(CableGeometry.problem(sampleRateHz: sampleRateHz) ?? "bad sample rate")
        }
        self.geometry = geometry
    }

    /// The transmission in `samples`; nil when no chirp was found.
    public func receive(_ samples: [Float]) -> CableReception? {
        guard let start = findChirp(samples), let fft = DoubleFFT(size: geometry.fftSize) else { return nil }
        let carriers = geometry.carrierCount
        func spectrum(_ symbol: Int) -> [Complex]? {
            let first = start + geometry.symbolStart(symbol) + geometry.prefixSamples / 2
            guard first >= 0, first + geometry.fftSize <= samples.count else { return nil }
            for index in 0..<geometry.fftSize { fft.real[index] = Double(samples[first + index]) }
            fft.forward()
            return (0..<carriers).map { Complex(fft.bins[2 * (geometry.firstBin + $0)], fft.bins[2 * (geometry.firstBin + $0) + 1]) }
        }
        guard let first = spectrum(0), let second = spectrum(1) else { return nil }
        // Channel per carrier and the noise after equalizing it, averaged per band.
        var channel = [Complex](repeating: Complex(1, 0), count: carriers)
        var bandNoise = [Double](repeating: 0, count: CablePlan.bandCount)
        var bandCarriers = [Int](repeating: 0, count: CablePlan.bandCount)
        for carrier in 0..<carriers {
            let sum = first[carrier] + second[carrier]
            let known = geometry.trainingValue(carrier)
            channel[carrier] = Complex(sum.re / 2, sum.im / 2) / known
            let difference = Complex(first[carrier].re - second[carrier].re, first[carrier].im - second[carrier].im)
            // Each training copy has noise variance |difference|² / 2; the average half that.
            let noise = difference.magnitudeSquared / 2
            let band = CablePlan.band(ofCarrier: carrier, carrierCount: carriers)
            bandNoise[band] += noise / max(channel[carrier].magnitudeSquared, 1e-30)
            bandCarriers[band] += 1
        }
        for band in 0..<CablePlan.bandCount { bandNoise[band] = max(bandNoise[band] / Double(max(1, bandCarriers[band])), 1e-16) }
        let bandSNR = bandNoise.map { -10 * log10($0) }
        channel = Self.smoothed(channel)
        // The noise after equalizing, the smoothed estimate's own (half of it: two training copies) added.
        let noiseOf = { (carrier: Int) in
            bandNoise[CablePlan.band(ofCarrier: carrier, carrierCount: carriers)] * (1 + Self.smoothedEstimateShare / 2)
        }
        func nothing(_ header: CableHeader?, damaged: Int = 0, truncated: Int = 0, crc: Bool = false) -> CableReception {
            CableReception(message: nil, header: header, startSample: start, damagedFrames: damaged, truncatedFrames: truncated,
                           bandSNRdB: bandSNR, messageCRCFailed: crc)
        }
        guard let headerSpectrum = spectrum(2),
              let headerCoder = CableFrameCoder(slotCount: CableHeader.codedBits, rate: .half, informationBytes: CableHeader.byteCount)
        else { return nothing(nil) }
        var headerSoft = [Float](repeating: 0, count: CableHeader.codedBits)
        for carrier in 0..<carriers {
            let value = (headerSpectrum[carrier] / channel[carrier]).re * 2 / noiseOf(carrier)
            headerSoft[carrier % CableHeader.codedBits] += Float(max(-50, min(50, value)))
        }
        guard let header = CableHeader(bytes: headerCoder.decode(headerSoft)),
              let coder = CableDataCoder(plan: header.plan, carrierCount: carriers),
              header.frameCount == (header.messageBytes + coder.payloadBytes - 1) / coder.payloadBytes
        else { return nothing(nil) }
        let noise = (0..<carriers).map(noiseOf)
        var message: [UInt8] = []
        message.reserveCapacity(header.messageBytes)
        var damaged = 0
        var truncated = 0
        frames: for frame in 0..<header.frameCount {
            var symbols: [[Complex]] = []
            for symbol in 0..<CablePlan.symbolsPerFrame {
                guard let values = spectrum(CableGeometry.firstDataSymbol + frame * CablePlan.symbolsPerFrame + symbol) else {
                    truncated += 1
                    continue frames
                }
                symbols.append((0..<carriers).map { values[$0] / channel[$0] })
            }
            guard let bytes = coder.decode(symbols, noise: noise),
                  let parsed = CableFrameCoder.parseFrame(bytes, payloadBytes: coder.payloadBytes), parsed.sequence == UInt32(frame),
                  frame == header.frameCount - 1 || parsed.payload.count == coder.payloadBytes else {
                damaged += 1
                continue
            }
            if damaged + truncated == 0 { message += parsed.payload }
        }
        guard damaged + truncated == 0 else { return nothing(header, damaged: damaged, truncated: truncated) }
        guard message.count == header.messageBytes, CRC32.checksum(message) == header.messageCRC else {
            return nothing(header, crc: true)
        }
        return CableReception(message: message, header: header, startSample: start, damagedFrames: 0, truncatedFrames: 0,
                              bandSNRdB: bandSNR, messageCRCFailed: false)
    }

    /// Start of the sync chirp: the peak of the matched filter over the first
    /// `searchSeconds`, when it stands well above the filter's mean output.
    func findChirp(_ samples: [Float]) -> Int? {
        let chirp = geometry.chirp()
        let span = min(samples.count, Int(searchSeconds * geometry.sampleRateHz) + chirp.count)
        guard span >= chirp.count, let fft = DoubleFFT(size: DoubleFFT.size(atLeast: span + chirp.count)) else { return nil }
        let reference = chirp.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        let signal = samples[0..<span].map { Double($0) }
        let received = signal.withUnsafeBufferPointer { fft.spectrum(of: $0) }
        let product = zip(received, reference).map { $0 * $1.conjugate }
        let correlation = fft.signal(from: product)
        var best = 0
        var total = 0.0
        for lag in 0..<span {
            total += abs(correlation[lag])
            if abs(correlation[lag]) > abs(correlation[best]) { best = lag }
        }
        let mean = total / Double(span)
        return abs(correlation[best]) > 8 * mean ? best : nil
    }
}
