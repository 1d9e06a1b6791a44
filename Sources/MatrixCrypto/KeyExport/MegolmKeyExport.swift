/// Element's key export file ("Export E2E room keys"; matrix-react-sdk's `MegolmExportEncryption`,
/// matrix-nio's `key_export`): the room keys' JSON encrypted with a passphrase, as text between
/// `-----BEGIN MEGOLM SESSION DATA-----` and `-----END MEGOLM SESSION DATA-----` lines.
///
/// The data, base64: version 1 (one byte), a 16-byte salt, a 16-byte IV (bit 63 clear, so the
/// 128-bit counter never wraps within a file), the PBKDF2 round count (4 bytes, big-endian),
/// the AES-256-CTR ciphertext, then HMAC-SHA-256 over all that. PBKDF2-HMAC-SHA-512 of the
/// passphrase makes 64 bytes: the AES key, then the HMAC key. The MAC is checked, in constant
/// time, before anything is decrypted.
public enum MegolmKeyExport {
    public static let header = "-----BEGIN MEGOLM SESSION DATA-----"
    public static let footer = "-----END MEGOLM SESSION DATA-----"
    static let version: UInt8 = 1
    static let saltLength = 16, ivLength = 16, roundsLength = 4, macLength = 32
    static let headerLength = 1 + saltLength + ivLength + roundsLength
    /// Element's round count for a new file.
    public static let defaultRounds = 500_000
    /// The most rounds a file may ask for: a file is someone's input, and each round costs time
    /// (ten million take seconds; Element writes half a million).
    public static let maximumRounds = 10_000_000
    /// Characters per base64 line, as Element writes them.
    static let lineLength = 96

    /// `plaintext` encrypted with `passphrase` as the file's text (lines ending in `\n`); the
    /// salt and IV are drawn from `random`.
    public static func seal(_ plaintext: [UInt8], passphrase: String, rounds: Int = defaultRounds,
                            random: inout some RandomSource) throws -> String {
        precondition(rounds > 0 && rounds <= maximumRounds, "PBKDF2 rounds out of range")
        let salt = try random.bytes(saltLength)
        var iv = try random.bytes(ivLength)
        iv[8] &= 0x7f
        let (aesKey, macKey) = try keys(passphrase: passphrase, salt: salt, rounds: rounds)
        let ciphertext = try AES256.ctr(key: aesKey, iv: iv, data: plaintext)
        let count = UInt32(rounds)
        var data = [version] + salt + iv + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> UInt32($0)) } + ciphertext
        data += try Digest.hmacSHA256(key: macKey, data: data)
        var encoded = Array(UnpaddedBase64.encode(data).utf8)
        while encoded.count % 4 != 0 { encoded.append(UInt8(ascii: "=")) }
        var lines = [header]
        var start = 0
        while start < encoded.count {
            let end = min(start + lineLength, encoded.count)
            lines.append(String(decoding: encoded[start..<end], as: UTF8.self))
            start = end
        }
        lines.append(footer)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The plaintext of a file's `text`, opened with `passphrase`. Lines around the BEGIN and END
    /// lines are ignored; the data may be wrapped anywhere, padded or not, with `\r\n` line ends.
    /// Throws `KeyExportRefusal`, in words, when it is not such a file, is cut short, asks for
    /// more rounds than `maximumRounds`, or its MAC does not check.
    public static func open(_ text: String, passphrase: String) throws -> [UInt8] {
        let data = try armoredData(text)
        guard data.count >= headerLength + macLength else { throw KeyExportRefusal.truncated }
        guard data[0] == version else {
            throw KeyExportRefusal("the key file is of format version \(data[0]), which this client cannot read (it reads version 1)")
        }
        let salt = Array(data[1..<(1 + saltLength)])
        let iv = Array(data[(1 + saltLength)..<(1 + saltLength + ivLength)])
        let rounds = data[(headerLength - roundsLength)..<headerLength].reduce(0) { $0 << 8 | Int($1) }
        guard rounds > 0 else { throw KeyExportRefusal("the key file is damaged: it asks for 0 key derivation rounds") }
        guard rounds <= maximumRounds else {
            throw KeyExportRefusal("the key file asks for \(rounds) key derivation rounds, more than the \(maximumRounds) this client allows")
        }
        let (aesKey, macKey) = try keys(passphrase: passphrase, salt: salt, rounds: rounds)
        let macStart = data.count - macLength
        let expected = try Digest.hmacSHA256(key: macKey, data: Array(data[..<macStart]))
        guard ConstantTime.equal(expected, Array(data[macStart...])) else { throw KeyExportRefusal.wrongPassphraseOrChanged }
        return try AES256.ctr(key: aesKey, iv: iv, data: Array(data[headerLength..<macStart]))
    }

    /// The bytes between the BEGIN and END lines.
    static func armoredData(_ text: String) throws -> [UInt8] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
        guard let begin = lines.firstIndex(of: Substring(header)) else { throw KeyExportRefusal.notAKeyFile }
        guard let end = lines[(begin + 1)...].firstIndex(of: Substring(footer)) else { throw KeyExportRefusal.truncated }
        let body = lines[(begin + 1)..<end].joined()
        guard let data = UnpaddedBase64.decode(body) else { throw KeyExportRefusal.notBase64 }
        return data
    }

    /// PBKDF2-HMAC-SHA-512's 64 bytes split into the AES key and the HMAC key.
    private static func keys(passphrase: String, salt: [UInt8], rounds: Int) throws -> (aes: [UInt8], mac: [UInt8]) {
        let derived = try KeyDerivation.pbkdf2SHA512(password: Array(passphrase.utf8), salt: salt, iterations: rounds, length: 64)
        return (Array(derived[..<32]), Array(derived[32...]))
    }
}

private extension Substring {
    /// Without spaces, tabs and a `\r` at either end.
    func trimmingWhitespace() -> Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" || first == "\r" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" || last == "\r" { trimmed.removeLast() }
        return trimmed
    }
}
