import ToneCore

extension LinkMeter.Settings: ClientPlacement {}
