import ThreadModel

/// One session as the backup keeps it (`session_data` of `m.megolm_backup.v1.curve25519-aes-sha2`):
/// the ephemeral Curve25519 key of its sender, the AES-256-CBC ciphertext and the 8-byte MAC,
/// each unpadded base64 in JSON.
public struct MegolmBackupCiphertext: Sendable, Equatable {
    /// The longest ciphertext read (base64 characters): a session's JSON is well under 1 KiB;
    /// anything far longer is a hostile answer, refused before it is decoded.
    static let maximumCiphertextCharacters = 65_536

    public let ephemeral: [UInt8]
    public let ciphertext: [UInt8]
    public let mac: [UInt8]

    public init(ephemeral: [UInt8], ciphertext: [UInt8], mac: [UInt8]) {
        self.ephemeral = ephemeral
        self.ciphertext = ciphertext
        self.mac = mac
    }

    /// Reads `session_data`; refused unless each part is base64 of the right length.
    public init(json: JSONValue) throws {
        guard let ephemeralText = json["ephemeral"]?.string, let ciphertextText = json["ciphertext"]?.string,
              let macText = json["mac"]?.string else {
            throw MegolmBackupRefusal("a backed-up session is not laid out as ephemeral, ciphertext and mac")
        }
        guard ciphertextText.utf8.count <= Self.maximumCiphertextCharacters else {
            throw MegolmBackupRefusal("a backed-up session is too long to be a room key")
        }
        guard let ephemeral = UnpaddedBase64.decode(ephemeralText), ephemeral.count == 32 else {
            throw MegolmBackupRefusal("a backed-up session's ephemeral key is not a Curve25519 key")
        }
        guard let ciphertext = UnpaddedBase64.decode(ciphertextText), !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            throw MegolmBackupRefusal("a backed-up session's ciphertext is not whole AES blocks in base64")
        }
        guard let mac = UnpaddedBase64.decode(macText), mac.count == MegolmBackupCipher.macLength else {
            throw MegolmBackupRefusal("a backed-up session's MAC is not 8 bytes in base64")
        }
        self.init(ephemeral: ephemeral, ciphertext: ciphertext, mac: mac)
    }

    /// The `session_data` object.
    public var json: JSONValue {
        ["ephemeral": .string(UnpaddedBase64.encode(ephemeral)), "ciphertext": .string(UnpaddedBase64.encode(ciphertext)),
         "mac": .string(UnpaddedBase64.encode(mac))]
    }
}
