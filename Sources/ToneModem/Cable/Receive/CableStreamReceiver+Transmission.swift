#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ToneDSP

extension CableStreamReceiver {
    /// One transmission being read, symbol by symbol.
    struct Transmission {
        /// Stream sample where its chirp starts.
        let start: Int
        var nextSymbol = 0
        var timing = CableTiming()
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
        /// Frames whose decoding failed since the last that decoded.
        var failedInARow = 0
        /// The noise on the decoded frames as the timing predicted them (what a re-timing path adds shows here).
        var dataNoise = CableBandNoise()
        /// Ended before its header symbol was in.
        var endsBeforeHeader = false
    }

    /// Frames of silence after which a transmission counts as cut off.
    static let silentFramesToEnd = 4
    /// Frames failed in a row after which a transmission's other frames are not decoded.
    static let hopelessFrames = 4

    func begin(atStreamSample start: Int) {
        var transmission = Transmission(start: start)
        transmission.timing.reference = geometry.symbolStart(0) + geometry.prefixSamples / 2
        reading = transmission
    }

    /// Reads the next symbol when its samples are in (the two training symbols together). Returns whether it made progress.
    func advance(final: Bool) -> Bool {
        guard var transmission = reading else { return false }
        let symbol = transmission.nextSymbol
        let range = readRange(transmission, symbol: symbol)
        // Training: both symbols in, and room to read them again at any plausible rate.
        let needed = symbol == 0 ? readRange(transmission, symbol: 1).upperBound + Self.trainingMargin : range.upperBound
        guard needed <= streamSamples else {
            if final { end(&transmission, cutOff: true) }
            return final
        }
        switch symbol {
        case 0:
            train(&transmission)
            transmission.nextSymbol = 2
        case 2:
            transmission.nextSymbol += 1
            guard readHeader(&transmission, spectrum(transmission, symbol: symbol)) else {
                reading = nil
                finished.append(reception(transmission))
                discard(before: transmission.start + geometry.chirpSamples)
                return true
            }
        default:
            let spectrum = spectrum(transmission, symbol: symbol)
            transmission.nextSymbol += 1
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
        // A frame's symbols stay in until it decoded: one that did not is read again (`reread`).
        let next = transmission.nextSymbol
        let first = CableGeometry.firstDataSymbol
        let keep = next > first ? next - (next - first) % CablePlan.symbolsPerFrame : next
        discard(before: readRange(transmission, symbol: keep).lowerBound - geometry.prefixSamples)
        return true
    }

    /// The noise variance after equalizing `carrier`: its band's, and the
    /// smoothed channel estimate's own (half of it: two training copies).
    func noise(_ transmission: Transmission, carrier: Int) -> Double {
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
        // A transmission whose frames failed `hopelessFrames` in a row is lost (it is delivered only whole): its
        // other frames count as damaged untried (each failed decode cost a debug receiver more than real time,
        // and its input ring overflowed under a plan too high for the path).
        guard !transmission.frameTouchesGap, transmission.failedInARow < Self.hopelessFrames else {
            transmission.damaged += 1
            return
        }
        let carriers = geometry.carrierCount
        let symbols = transmission.frameSymbols.map { values in (0..<carriers).map { values[$0] / transmission.channel[$0] } }
        let variances = (0..<carriers).map { noise(transmission, carrier: $0) }
        func payload(_ symbols: [[Complex]]) -> (bytes: [UInt8], payload: ArraySlice<UInt8>)? {
            guard let bytes = coder.decode(symbols, noise: variances),
                  let parsed = CableFrameCoder.parseFrame(bytes, payloadBytes: coder.payloadBytes),
                  parsed.sequence == UInt32(frame),
                  frame == header.frameCount - 1 || parsed.payload.count == coder.payloadBytes else { return nil }
            return (bytes, parsed.payload)
        }
        // Each symbol with the timing it shows itself taken out; then, failing that, read again where they showed
        // they lie, stretched by the rate between them.
        let aligned = align(transmission, symbols: symbols, carrierBits: coder.carrierBits, variances: variances)
        var received = symbols
        var decoded = payload(aligned.symbols)
        // What the symbols showed, unless it lies beyond what slicing can see (a dropout, a burst of noise: a line
        // through nothing).
        let seen = aligned.measured.allSatisfy { abs($0.delay) <= Self.largestBlindCorrection } ? aligned.measured : []
        if decoded == nil, let again = reread(transmission, frame: frame, measured: seen, carrierBits: coder.carrierBits,
                                              variances: variances), let second = payload(again.aligned) {
            transmission.timing = again.timing
            received = again.symbols
            decoded = second
        }
        guard let decoded else {
            // Still steers the loop: a frame lost to the timing must not lose the next.
            track(&transmission, measured: seen, frame: frame)
            transmission.damaged += 1
            transmission.failedInARow += 1
            return
        }
        transmission.failedInARow = 0
        let sent = coder.symbols(decoded.bytes)
        transmission.dataNoise.take(received: received, sent: sent, carrierCount: carriers)
        if tracks(transmission) {
            track(&transmission, measured: measure(received: received, sent: sent, variances: variances), frame: frame)
        }
        let parsed = decoded
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
        discard(before: readRange(transmission, symbol: transmission.nextSymbol).lowerBound)
    }

    private func reception(_ transmission: Transmission) -> CableReception {
        let intact = transmission.damaged + transmission.truncated == 0
        let header = transmission.header
        let whole = intact && header.map { transmission.message.count == $0.messageBytes
            && CRC32.checksum(transmission.message) == $0.messageCRC } ?? false
        return CableReception(message: whole ? transmission.message : nil, header: header, startSample: transmission.start,
                              damagedFrames: transmission.damaged, truncatedFrames: transmission.truncated,
                              bandSNRdB: transmission.bandSNRdB, messageCRCFailed: intact && header != nil && !whole,
                              intactBytes: transmission.intactBytes, endsBeforeHeader: transmission.endsBeforeHeader,
                              dataSNRdB: transmission.dataNoise.snrDB)
    }
}
