import ToneJack

// The render entry points `ProcessBridge` calls every period (JACK thread),
// one per renderer, all of one pattern (see `ProcessBridge.RenderFunction`):
// `@_noLocks`; enter the renderer through `_withUnsafeGuaranteedRef` (no
// retain: the bridge holds the renderer for as long as the callbacks run);
// call its `@_noLocks` render. A C function pointer cannot be generic, so
// each renderer gets its own small function here.

extension Engine {
    /// `Engine`'s entry point for a `ProcessBridge`.
    static let renderFunction: ProcessBridge.RenderFunction = engineRender
}

extension MeasureEngine {
    /// `MeasureEngine`'s entry point for a `ProcessBridge`.
    static let renderFunction: ProcessBridge.RenderFunction = measureEngineRender
}

extension LinkEngine {
    /// `LinkEngine`'s entry point for a `ProcessBridge`.
    static let renderFunction: ProcessBridge.RenderFunction = linkEngineRender
}

/// Every channel and the period's MIDI events into `Engine.render(inputs:…)`.
@_noLocks
private func engineRender(_ context: UnsafeMutableRawPointer?,
                          _ inputs: UnsafePointer<UnsafePointer<Float>?>?,
                          _ outputs: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                          _ channels: UInt32,
                          _ frames: UInt32,
                          _ midi: UnsafeRawPointer?,
                          _ midiCount: UInt32,
                          _ midiOut: UnsafeMutableRawPointer?,
                          _ midiOutCount: UnsafeMutablePointer<UInt32>?) {
    guard let context, let inputs, let outputs, channels >= 1 else { return }
    // safe: the bridge hands `midiCount` events of `MIDIEvent`'s layout
    // (checked when it was made), written before this call.
    let events = midi?.assumingMemoryBound(to: MIDIEvent.self)
    Unmanaged<Engine>.fromOpaque(context)._withUnsafeGuaranteedRef {
        $0.render(inputs: inputs, outputs: outputs, channels: Int(channels), frames: Int(frames),
                  midi: events, midiCount: Int(midiCount))
    }
}

/// Every channel into `MeasureEngine.render(inputs:…)`, and its scheduled MIDI notes out (`--what midi`).
@_noLocks
private func measureEngineRender(_ context: UnsafeMutableRawPointer?,
                                 _ inputs: UnsafePointer<UnsafePointer<Float>?>?,
                                 _ outputs: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                                 _ channels: UInt32,
                                 _ frames: UInt32,
                                 _ midi: UnsafeRawPointer?,
                                 _ midiCount: UInt32,
                                 _ midiOut: UnsafeMutableRawPointer?,
                                 _ midiOutCount: UnsafeMutablePointer<UInt32>?) {
    guard let context, let inputs, let outputs, channels >= 1 else { return }
    // safe: the bridge hands room for `maximumMIDIEvents` events of `MIDIEvent`'s
    // layout (checked when it was made), or nil without a MIDI output port.
    let outgoing = midiOut?.assumingMemoryBound(to: MIDIEvent.self)
    Unmanaged<MeasureEngine>.fromOpaque(context)._withUnsafeGuaranteedRef {
        let written = $0.render(inputs: inputs, outputs: outputs, channels: Int(channels), frames: Int(frames),
                                midiOut: outgoing)
        midiOutCount?.pointee = UInt32(written)
    }
}

/// Channel 0 into `LinkEngine.render`; the link client has no MIDI port.
@_noLocks
private func linkEngineRender(_ context: UnsafeMutableRawPointer?,
                              _ inputs: UnsafePointer<UnsafePointer<Float>?>?,
                              _ outputs: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                              _ channels: UInt32,
                              _ frames: UInt32,
                              _ midi: UnsafeRawPointer?,
                              _ midiCount: UInt32,
                              _ midiOut: UnsafeMutableRawPointer?,
                              _ midiOutCount: UnsafeMutablePointer<UInt32>?) {
    guard let context, let inputs, let outputs, channels >= 1,
          let input = inputs[0], let output = outputs[0] else { return }
    Unmanaged<LinkEngine>.fromOpaque(context)._withUnsafeGuaranteedRef {
        $0.render(input: input, output: output, frames: Int(frames))
    }
}
