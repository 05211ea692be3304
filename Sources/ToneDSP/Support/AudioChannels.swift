/// How many audio channels ToneNode carries at most: the node's `--channels`,
/// `measure --channels` and its crosstalk matrix. The JACK bridge's C side
/// holds as many port pairs (`TN_MAX_CHANNELS` in CJack's shim.h, which cannot
/// read Swift; ToneEngineTests checks the two agree).
public enum AudioChannels {
    public static let maximum = 8
}
