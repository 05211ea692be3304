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
        /// The last frame decoded only with each symbol's own timing taken out (`align`): the next is tried so first.
        var alignedFirst = false
        var frameSilent = true
        /// A symbol of the frame carried less than `droppedOutPower` of the training's power: a dropout, not noise.
        var frameDroppedOut = false
        var silentFrames = 0
        /// The message's bytes up to the first frame that did not arrive intact.
        var message: [UInt8] = []
        /// Intact frames after the first that did not.
        var laterPieces: [CableReception.Piece] = []
        var damaged = 0
        /// Of the damaged frames, those whose energy went or whose timing jumped (a dropout, not noise).
        var droppedOut = 0
        var truncated = 0
        var framesRead: Int { damaged + truncated + intactFrames }
        var intactFrames = 0
        var intactBytes = 0
        /// Frames whose decoding failed since the last that decoded.
        var failedInARow = 0
        /// The noise on the decoded frames as the timing predicted them (what a re-timing path adds shows here).
        var dataNoise = CableBandNoise()
        /// The header did not decode and its energy (or one training symbol's) had gone.
        var headerDroppedOut = false
        /// The two training symbols' powers differ by more than `droppedOutPower`.
        var trainingUneven = false
        /// Ended before its header symbol was in.
        var endsBeforeHeader = false
    }

    /// Frames of silence after which a transmission counts as cut off.
    static let silentFramesToEnd = 4
    /// Share of the training's power below which a symbol counts as dropped out: a mute over a sixth of it (the
    /// 10 ms edge of a 30 ms mute; a frame's measured lines through such a symbol lost the frames after it). Noise
    /// only adds power.
    static let droppedOutPower = 0.85
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
        var needed = symbol == 0 ? readRange(transmission, symbol: 1).upperBound + Self.trainingMargin : range.upperBound
        // After a frame that failed, a frame's prefixes may be searched for up to `reacquisitionSpan` later.
        if transmission.failedInARow > 0, !final, transmission.frameSymbols.count == CablePlan.symbolsPerFrame - 1 {
            needed += reacquisitionSpan + geometry.prefixSamples
        }
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
            let values = spectrum(transmission, symbol: symbol)
            guard readHeader(&transmission, values) else {
                // Energy gone from the header or from one training symbol: a dropout, not noise.
                let power = values.reduce(0) { $0 + $1.magnitudeSquared } / Double(max(1, values.count))
                transmission.headerDroppedOut = transmission.trainingUneven
                    || power < Self.droppedOutPower * transmission.trainingPower
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
            if power < Self.droppedOutPower * transmission.trainingPower { transmission.frameDroppedOut = true }
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
        // Room behind, too, for a frame searched for up to `reacquisitionSpan` earlier.
        discard(before: readRange(transmission, symbol: keep).lowerBound - geometry.prefixSamples - reacquisitionSpan)
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
            transmission.frameDroppedOut = false
        }
        transmission.silentFrames = transmission.frameSilent ? transmission.silentFrames + 1 : 0
        guard let header = transmission.header, let coder = transmission.coder else { return }
        let frame = transmission.framesRead
        // A transmission whose frames failed `hopelessFrames` in a row is lost (it is delivered only whole): its
        // other frames count as damaged untried (each failed decode cost a debug receiver more than real time,
        // and its input ring overflowed under a plan too high for the path).
        guard !transmission.frameTouchesGap, transmission.failedInARow < Self.hopelessFrames else {
            transmission.damaged += 1
            if transmission.frameTouchesGap { transmission.droppedOut += 1 }
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
        // On a path that keeps the timing the training found, the symbols as timed decode where the alignment's own
        // lines (sliced at up to a quarter of a half-distance) cost a 10- or 14-bit plan 40 % of its frames at 9 dB
        // margin: read as timed first unless the last frame needed the alignment (a re-timing path), then the other way.
        var decoded: (bytes: [UInt8], payload: ArraySlice<UInt8>)?
        for useAligned in transmission.alignedFirst ? [true, false] : [false, true] where decoded == nil {
            guard !useAligned || !aligned.measured.isEmpty else { continue }
            decoded = payload(useAligned ? aligned.symbols : symbols)
            if decoded != nil { transmission.alignedFirst = useAligned }
        }
        // What the symbols showed, unless it lies beyond what slicing can see (a dropout, a burst of noise: a line
        // through nothing).
        let seen = aligned.measured.allSatisfy { abs($0.delay) <= Self.largestBlindCorrection } ? aligned.measured : []
        if decoded == nil, let again = reread(transmission, frame: frame, measured: seen, carrierBits: coder.carrierBits,
                                              variances: variances), let second = payload(again.aligned) {
            transmission.timing = again.timing
            received = again.symbols
            decoded = second
        }
        // A dropout, a jump (an xrun on either side) or a discontinuity moved the stream: the frame is read where its
        // cyclic prefixes show it lies, one sample either side (the prefix's match is coarse by about one).
        var jumped = false
        if decoded == nil, !transmission.frameSilent, let shift = reacquiredShift(transmission, frame: frame) {
            jumped = true
            for candidate in [shift, shift - 1, shift + 1] {
                guard let moved = readShifted(transmission, frame: frame, shift: candidate) else { continue }
                var shifted = transmission
                shifted.timing = moved.timing
                if let found = payload(align(shifted, symbols: moved.symbols, carrierBits: coder.carrierBits,
                                             variances: variances).symbols) {
                    transmission.timing = moved.timing
                    received = moved.symbols
                    decoded = found
                    break
                }
            }
        }
        guard let decoded else {
            // Still steers the loop: a frame lost to the timing must not lose the next. A frame whose energy went
            // (a mute, a dropout) shows nothing of the timing: its lines would lose the next frame too.
            if !transmission.frameDroppedOut { track(&transmission, measured: seen, frame: frame) }
            transmission.damaged += 1
            if transmission.frameDroppedOut || jumped { transmission.droppedOut += 1 }
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
        if transmission.damaged + transmission.truncated == 0 {
            transmission.message += parsed.payload
        } else {
            transmission.laterPieces.append(CableReception.Piece(messageOffset: frame * coder.payloadBytes, bytes: Array(parsed.payload)))
        }
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
        var pieces: [CableReception.Piece] = []
        if !whole, header != nil {
            if !transmission.message.isEmpty { pieces.append(CableReception.Piece(messageOffset: 0, bytes: transmission.message)) }
            pieces += transmission.laterPieces
        }
        return CableReception(message: whole ? transmission.message : nil, header: header, startSample: transmission.start,
                              damagedFrames: transmission.damaged, truncatedFrames: transmission.truncated,
                              bandSNRdB: transmission.bandSNRdB, messageCRCFailed: intact && header != nil && !whole,
                              intactBytes: transmission.intactBytes, endsBeforeHeader: transmission.endsBeforeHeader,
                              dataSNRdB: transmission.dataNoise.snrDB, intactPieces: intact ? [] : pieces,
                              droppedOutFrames: transmission.droppedOut, headerLostToDropout: transmission.headerDroppedOut)
    }
}
