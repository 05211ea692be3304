import ToneDSP
