import ToneCore

extension ChainRecorder.Settings: ClientPlacement {}
