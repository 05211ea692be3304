import ToneCore
import ToneJack
import CJack

/// The Swift function the C process callback (`tn_process` in CJack's shim)
/// calls every period, with the port buffers already fetched.
///
/// Enters the engine without retaining it (`_withUnsafeGuaranteedRef`): the
/// node keeps the engine alive for as long as the client is active.
@_noLocks
func toneNodeRender(_ context: UnsafeMutableRawPointer?,
                    _ inputs: UnsafePointer<UnsafePointer<Float>?>?,
                    _ outputs: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                    _ channels: UInt32,
                    _ frames: UInt32,
                    _ midi: UnsafePointer<tn_midi_event>?,
                    _ midiCount: UInt32) {
    guard let context, let inputs, let outputs, channels >= 1 else { return }
    Unmanaged<Engine>.fromOpaque(context)._withUnsafeGuaranteedRef {
        $0.render(inputs: inputs, outputs: outputs, channels: Int(channels), frames: Int(frames),
                  midi: midi, midiCount: Int(midiCount))
    }
}

/// `toneNodeRender` as the C function pointer the shim stores.
let toneNodeRenderFunction: tn_render_fn = toneNodeRender
