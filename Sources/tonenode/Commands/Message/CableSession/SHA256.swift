import CCrypto

/// SHA-256 through OpenSSL's libcrypto (the EVP one-shot digest): the check
/// of a whole file a cable session makes on both sides. The only importer of CCrypto.
enum SHA256 {
    static let byteCount = 32

    /// The digest of `bytes`, 32 bytes.
    @Sendable static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { data in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(data.baseAddress, data.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only without memory or a provider for SHA-256: libcrypto is broken, not the input.
        precondition(status == 1 && length == UInt32(byteCount), "libcrypto's SHA-256 failed")
        return Array(digest.prefix(byteCount))
    }

    /// Lower-case hex, as sha256sum prints it.
    static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
