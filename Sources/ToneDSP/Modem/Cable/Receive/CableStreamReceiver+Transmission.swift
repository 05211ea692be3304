#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CableStreamReceiver {
    /// One transmission being read, symbol by symbol.
    struct Transmission {
        /// Stream sample where its chirp starts.
        let start: Int
        var nextSymbol = 0
        var firstTraining: [Complex] = []
        var channel: [Complex] = []
        var bandNoise: [Double] = []
        var bandSNRdB: [Double] = []
        /// Mean power per carrier of the training symbols as received.
        var trainingPower = 0.0
        var header: CableHeader?
        var coder: CableDataCoder?
        var frameSymbols: [[Complex]] = []
        var frameTouchesGap = false
        var frameSilent = true
        var silentFrames = 0
        var message: [UInt8] = []
        var damaged = 0
        var truncated = 0
        var framesRead: Int { damaged + truncated + intactFrames }
        var intactFrames = 0
        var intactBytes = 0
        /// Ended before its header symbol was in.
        var endsBeforeHeader = false
    }

    /// Frames of silence after which a transmission counts as cut off.
    static let silentFramesToEnd = 4

    func begin(atStreamSample start: Int) {
        reading = Transmission(start: start)
    }

    /// Reads the next symbol when its samples are in. Returns whether it made progress.
    func advance(final: Bool) -> Bool {
        guard var transmission = reading else { return false }
        let first = transmission.start + geometry.symbolStart(transmission.nextSymbol) + geometry.prefixSamples / 2
        let range = first..<(first + geometry.fftSize)
        guard range.upperBound <= streamSamples else {
            if final { end(&transmission, cutOff: true) }
            return final
        }
        for index in 0..<geometry.fftSize { symbolFFT.real[index] = Double(buffer[first - bufferStart + index]) }
        symbolFFT.forward()
        let spectrum = (0..<geometry.carrierCount).map {
            Complex(symbolFFT.bins[2 * (geometry.firstBin + $0)], symbolFFT.bins[2 * (geometry.firstBin + $0) + 1])
        }
        let symbol = transmission.nextSymbol
        transmission.nextSymbol += 1
        switch symbol {
        case 0:
            transmission.firstTraining = spectrum
        case 1:
            train(&transmission, second: spectrum)
        case 2:
            guard readHeader(&transmission, spectrum) else {
                reading = nil
                finished.append(reception(transmission))
                discard(before: transmission.start + geometry.chirpSamples)
                return true
            }
        default:
            transmission.frameSymbols.append(spectrum)
            transmission.frameTouchesGap = transmission.frameTouchesGap || touchesGap(range)
            let power = spectrum.reduce(0) { $0 + $1.magnitudeSquared } / Double(max(1, spectrum.count))
            if power > 0.01 * transmission.trainingPower { transmission.frameSilent = false }
            if transmission.frameSymbols.count == CablePlan.symbolsPerFrame { decodeFrame(&transmission) }
            if let header = transmission.header, transmission.framesRead == header.frameCount {
                end(&transmission, cutOff: false)
                return true
            }
            if transmission.silentFrames >= Self.silentFramesToEnd {
                end(&transmission, cutOff: true)
                return true
            }
        }
        reading = transmission
        discard(before: transmission.start + geometry.symbolStart(transmission.nextSymbol))
        return true
    }

    /// Channel per carrier from the two training symbols, and the noise after equalizing it, per band.
    private func train(_ transmission: inout Transmission, second: [Complex]) {
        let carriers = geometry.carrierCount
        let first = transmission.firstTraining
        var channel = [Complex](repeating: Complex(1, 0), count: carriers)
        var bandNoise = [Double](repeating: 0, count: CablePlan.bandCount)
        var bandCarriers = [Int](repeating: 0, count: CablePlan.bandCount)
        var power = 0.0
        for carrier in 0..<carriers {
            let sum = first[carrier] + second[carrier]
            channel[carrier] = Complex(sum.re / 2, sum.im / 2) / geometry.trainingValue(carrier)
            let difference = Complex(first[carrier].re - second[carrier].re, first[carrier].im - second[carrier].im)
            // Each training copy has noise variance |difference|² / 2; the average half that.
            let band = CablePlan.band(ofCarrier: carrier, carrierCount: carriers)
            bandNoise[band] += difference.magnitudeSquared / 2 / max(channel[carrier].magnitudeSquared, 1e-30)
            bandCarriers[band] += 1
            power += (first[carrier].magnitudeSquared + second[carrier].magnitudeSquared) / 2
        }
        for band in 0..<CablePlan.bandCount { bandNoise[band] = max(bandNoise[band] / Double(max(1, bandCarriers[band])), 1e-16) }
        transmission.channel = CableDemodulator.smoothed(channel)
        transmission.bandNoise = bandNoise
        transmission.bandSNRdB = bandNoise.map { -10 * log10($0) }
        transmission.trainingPower = power / Double(max(1, carriers))
    }

    /// The noise variance after equalizing `carrier`: its band's, and the
    /// smoothed channel estimate's own (half of it: two training copies).
    private func noise(_ transmission: Transmission, carrier: Int) -> Double {
        transmission.bandNoise[CablePlan.band(ofCarrier: carrier, carrierCount: geometry.carrierCount)]
            * (1 + CableDemodulator.smoothedEstimateShare / 2)
    }

    private func readHeader(_ transmission: inout Transmission, _ spectrum: [Complex]) -> Bool {
        let carriers = geometry.carrierCount
        guard let headerCoder = CableFrameCoder(slotCount: CableHeader.codedBits, rate: .half, informationBytes: CableHeader.byteCount)
        else { return false }
        var soft = [Float](repeating: 0, count: CableHeader.codedBits)
        for carrier in 0..<carriers {
            let value = (spectrum[carrier] / transmission.channel[carrier]).re * 2 / noise(transmission, carrier: carrier)
            soft[carrier % CableHeader.codedBits] += Float(max(-50, min(50, value)))
        }
        guard let header = CableHeader(bytes: headerCoder.decode(soft)),
              let coder = CableDataCoder(plan: header.plan, carrierCount: carriers),
              header.frameCount == (header.messageBytes + coder.payloadBytes - 1) / coder.payloadBytes
        else { return false }
        transmission.header = header
        transmission.coder = coder
        transmission.message.reserveCapacity(min(header.messageBytes, 1 << 26))
        return true
    }

    private func decodeFrame(_ transmission: inout Transmission) {
        defer {
            transmission.frameSymbols.removeAll(keepingCapacity: true)
            transmission.frameTouchesGap = false
            transmission.frameSilent = true
        }
        transmission.silentFrames = transmission.frameSilent ? transmission.silentFrames + 1 : 0
        guard let header = transmission.header, let coder = transmission.coder else { return }
        let frame = transmission.framesRead
        guard !transmission.frameTouchesGap else {
            transmission.damaged += 1
            return
        }
        let carriers = geometry.carrierCount
        let symbols = transmission.frameSymbols.map { values in (0..<carriers).map { values[$0] / transmission.channel[$0] } }
        let variances = (0..<carriers).map { noise(transmission, carrier: $0) }
        guard let bytes = coder.decode(symbols, noise: variances),
              let parsed = CableFrameCoder.parseFrame(bytes, payloadBytes: coder.payloadBytes), parsed.sequence == UInt32(frame),
              frame == header.frameCount - 1 || parsed.payload.count == coder.payloadBytes else {
            transmission.damaged += 1
            return
        }
        if transmission.damaged + transmission.truncated == 0 { transmission.message += parsed.payload }
        transmission.intactFrames += 1
        transmission.intactBytes += parsed.payload.count
    }

    /// Reports the transmission and goes back to searching after it.
    private func end(_ transmission: inout Transmission, cutOff: Bool) {
        if cutOff, let header = transmission.header {
            transmission.truncated += header.frameCount - transmission.framesRead
        }
        transmission.endsBeforeHeader = cutOff && transmission.header == nil
        reading = nil
        finished.append(reception(transmission))
        discard(before: transmission.start + geometry.symbolStart(transmission.nextSymbol))
    }

    private func reception(_ transmission: Transmission) -> CableReception {
        let intact = transmission.damaged + transmission.truncated == 0
        let header = transmission.header
        let whole = intact && header.map { transmission.message.count == $0.messageBytes
            && CRC32.checksum(transmission.message) == $0.messageCRC } ?? false
        return CableReception(message: whole ? transmission.message : nil, header: header, startSample: transmission.start,
                              damagedFrames: transmission.damaged, truncatedFrames: transmission.truncated,
                              bandSNRdB: transmission.bandSNRdB, messageCRCFailed: intact && header != nil && !whole,
                              intactBytes: transmission.intactBytes, endsBeforeHeader: transmission.endsBeforeHeader)
    }
}
