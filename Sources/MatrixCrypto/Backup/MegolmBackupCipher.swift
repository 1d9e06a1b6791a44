/// The cipher of `m.megolm_backup.v1.curve25519-aes-sha2` (libolm's `pk.cpp`): an ephemeral
/// Curve25519 key agrees a secret with the backup's public key; HKDF-SHA256 of it (no salt, no
/// info) gives the AES-256 key, the HMAC key and the IV; the plaintext is AES-256-CBC with PKCS#7
/// padding. The MAC is the first 8 bytes of HMAC-SHA256 over an EMPTY message, not over the
/// ciphertext: libolm has always done so and every client follows it (the spec notes the slip),
/// so it proves only that the sender knew the agreed secret.
public enum MegolmBackupCipher {
    /// Bytes of the truncated MAC.
    public static let macLength = 8

    /// `plaintext` encrypted to the backup public key `publicKey`, the ephemeral key's private
    /// half the first 32 bytes of `random`.
    public static func encrypt(_ plaintext: [UInt8], to publicKey: [UInt8], random: inout some RandomSource) throws -> MegolmBackupCiphertext {
        guard publicKey.count == 32 else { throw MegolmBackupRefusal("the backup's public key is not a Curve25519 key") }
        let ephemeral = try Curve25519KeyPair(random: &random)
        let keys = try derivedKeys(sharedSecret: ephemeral.sharedSecret(with: publicKey))
        let ciphertext = try AES256.encryptCBC(key: keys.aes, iv: keys.iv, plaintext: plaintext)
        let mac = try Digest.hmacSHA256(key: keys.mac, data: [])
        return MegolmBackupCiphertext(ephemeral: ephemeral.publicKey, ciphertext: ciphertext, mac: Array(mac.prefix(macLength)))
    }

    /// The plaintext of `encrypted`, opened with the backup's private key; refused when the MAC
    /// does not check (another key, or tampered) or the padding is wrong.
    public static func decrypt(_ encrypted: MegolmBackupCiphertext, with keyPair: Curve25519KeyPair) throws -> [UInt8] {
        let secret: [UInt8]
        do {
            secret = try keyPair.sharedSecret(with: encrypted.ephemeral)
        } catch {
            throw MegolmBackupRefusal("a backed-up session's ephemeral key is not usable")
        }
        let keys = try derivedKeys(sharedSecret: secret)
        let mac = try Digest.hmacSHA256(key: keys.mac, data: [])
        guard ConstantTime.equal(Array(mac.prefix(macLength)), encrypted.mac) else {
            throw MegolmBackupRefusal("a backed-up session was not encrypted for this backup key (its MAC does not check)")
        }
        do {
            return try AES256.decryptCBC(key: keys.aes, iv: keys.iv, ciphertext: encrypted.ciphertext)
        } catch {
            throw MegolmBackupRefusal("a backed-up session did not decrypt (bad padding)")
        }
    }

    /// AES key, HMAC key, IV: 80 bytes of HKDF-SHA256 over the agreed secret.
    static func derivedKeys(sharedSecret: [UInt8]) throws -> (aes: [UInt8], mac: [UInt8], iv: [UInt8]) {
        let bytes = try KeyDerivation.hkdfSHA256(key: sharedSecret, salt: [], info: [], length: 80)
        return (Array(bytes[0 ..< 32]), Array(bytes[32 ..< 64]), Array(bytes[64 ..< 80]))
    }
}
