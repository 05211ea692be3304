import ArgumentParser
import ToneDSP

extension ModemProfile: ExpressibleByArgument {}
