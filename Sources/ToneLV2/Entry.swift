import CLV2

// The functions the C descriptor table (Sources/CLV2/shim.c) calls, one per
// LV2 callback. The instance is the handle (retained at `new`, released at
// `free`); the callbacks enter it without a retain (`_withUnsafeGuaranteedRef`),
// as the node's JACK callbacks do (Sources/ToneEngine/Engines/RenderBridge.swift).

@_cdecl("tn_lv2_analyzer_new")
func analyzerNew(_ rate: Double, _ schedule: UnsafePointer<LV2_Worker_Schedule>?) -> UnsafeMutableRawPointer? {
    guard let schedule, let plugin = AnalyzerPlugin(sampleRateHz: rate, schedule: schedule) else { return nil }
    return Unmanaged.passRetained(plugin).toOpaque()
}

@_cdecl("tn_lv2_analyzer_connect")
func analyzerConnect(_ handle: UnsafeMutableRawPointer, _ port: UInt32, _ data: UnsafeMutableRawPointer?) {
    Unmanaged<AnalyzerPlugin>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.connect(Int(port), data) }
}

@_cdecl("tn_lv2_analyzer_activate")
func analyzerActivate(_ handle: UnsafeMutableRawPointer) {}

@_cdecl("tn_lv2_analyzer_run") @_noLocks
func analyzerRun(_ handle: UnsafeMutableRawPointer, _ frames: UInt32) {
    Unmanaged<AnalyzerPlugin>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.run(frames: Int(frames)) }
}

@_cdecl("tn_lv2_analyzer_free")
func analyzerFree(_ handle: UnsafeMutableRawPointer) {
    Unmanaged<AnalyzerPlugin>.fromOpaque(handle).release()
}

/// Worker thread: the ring through the analyzer, the last reading back.
@_cdecl("tn_lv2_analyzer_work")
func analyzerWork(_ handle: UnsafeMutableRawPointer, _ respond: LV2_Worker_Respond_Function?,
                  _ respondHandle: LV2_Worker_Respond_Handle?, _ size: UInt32, _ data: UnsafeRawPointer?) -> Int32 {
    guard let respond, let data, Int(size) == MemoryLayout<AnalyzerRequest>.size else { return 1 }
    let request = data.loadUnaligned(as: AnalyzerRequest.self)
    return Unmanaged<AnalyzerPlugin>.fromOpaque(handle)._withUnsafeGuaranteedRef { plugin in
        guard var reading = plugin.worker.drain(plugin.capture, request) else { return 0 }
        return withUnsafeBytes(of: &reading) { bytes in
            Int32(tn_lv2_respond(respond, respondHandle, UInt32(bytes.count), bytes.baseAddress))
        }
    }
}

/// Audio thread: a reading from `work`.
@_cdecl("tn_lv2_analyzer_work_response") @_noLocks
func analyzerWorkResponse(_ handle: UnsafeMutableRawPointer, _ size: UInt32, _ data: UnsafeRawPointer?) -> Int32 {
    guard let data, Int(size) == MemoryLayout<AnalyzerReading>.size else { return 1 }
    let reading = data.loadUnaligned(as: AnalyzerReading.self)
    Unmanaged<AnalyzerPlugin>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.receive(reading) }
    return 0
}

@_cdecl("tn_lv2_generator_new")
func generatorNew(_ rate: Double) -> UnsafeMutableRawPointer? {
    GeneratorPlugin(sampleRateHz: rate).map { Unmanaged.passRetained($0).toOpaque() }
}

@_cdecl("tn_lv2_generator_connect")
func generatorConnect(_ handle: UnsafeMutableRawPointer, _ port: UInt32, _ data: UnsafeMutableRawPointer?) {
    Unmanaged<GeneratorPlugin>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.connect(Int(port), data) }
}

@_cdecl("tn_lv2_generator_activate")
func generatorActivate(_ handle: UnsafeMutableRawPointer) {}

@_cdecl("tn_lv2_generator_run") @_noLocks
func generatorRun(_ handle: UnsafeMutableRawPointer, _ frames: UInt32) {
    Unmanaged<GeneratorPlugin>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.run(frames: Int(frames)) }
}

@_cdecl("tn_lv2_generator_free")
func generatorFree(_ handle: UnsafeMutableRawPointer) {
    Unmanaged<GeneratorPlugin>.fromOpaque(handle).release()
}
