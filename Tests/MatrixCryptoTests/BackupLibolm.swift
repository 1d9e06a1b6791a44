import COlm
import Foundation

/// libolm's `pk.h` (the oracle of the key backup's cipher): encryption to a public key and
/// decryption with its private key, texts in libolm's unpadded base64.
enum LibolmPk {
    /// The public key (base64) of a 32-byte private key.
    static func publicKey(privateKey: [UInt8]) throws -> String {
        try withDecryption(privateKey: privateKey) { _, publicKey in publicKey }
    }

    /// `plaintext` encrypted to `publicKey` (base64) with `random` as the ephemeral private key.
    static func encrypt(_ plaintext: [UInt8], to publicKey: String, random: [UInt8]) throws -> (ciphertext: String, mac: String, ephemeral: String) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: olm_pk_encryption_size(), alignment: 16)
        defer { memory.deallocate() }
        let encryption = olm_pk_encryption(memory)!
        defer { olm_clear_pk_encryption(encryption) }
        func check(_ result: Int) throws {
            if result == olm_error() { throw LibolmRefusal(description: String(cString: olm_pk_encryption_last_error(encryption))) }
        }
        let key = Array(publicKey.utf8)
        try check(olm_pk_encryption_set_recipient_key(encryption, key, key.count))
        var ciphertext = [UInt8](repeating: 0, count: olm_pk_ciphertext_length(encryption, plaintext.count))
        var mac = [UInt8](repeating: 0, count: olm_pk_mac_length(encryption))
        var ephemeral = [UInt8](repeating: 0, count: olm_pk_key_length())
        var randomBytes = random
        try check(olm_pk_encrypt(encryption, plaintext, plaintext.count, &ciphertext, ciphertext.count, &mac, mac.count,
                                 &ephemeral, ephemeral.count, &randomBytes, randomBytes.count))
        return (String(decoding: ciphertext, as: UTF8.self), String(decoding: mac, as: UTF8.self), String(decoding: ephemeral, as: UTF8.self))
    }

    /// The plaintext of a message (its parts base64) opened with `privateKey`.
    static func decrypt(ciphertext: String, mac: String, ephemeral: String, privateKey: [UInt8]) throws -> [UInt8] {
        try withDecryption(privateKey: privateKey) { decryption, _ in
            func check(_ result: Int) throws -> Int {
                if result == olm_error() { throw LibolmRefusal(description: String(cString: olm_pk_decryption_last_error(decryption))) }
                return result
            }
            var text = Array(ciphertext.utf8)
            let ephemeralBytes = Array(ephemeral.utf8), macBytes = Array(mac.utf8)
            var plaintext = [UInt8](repeating: 0, count: olm_pk_max_plaintext_length(decryption, text.count))
            let length = try check(olm_pk_decrypt(decryption, ephemeralBytes, ephemeralBytes.count, macBytes, macBytes.count,
                                                  &text, text.count, &plaintext, plaintext.count))
            return Array(plaintext.prefix(length))
        }
    }

    private static func withDecryption<T>(privateKey: [UInt8], _ body: (OpaquePointer, String) throws -> T) throws -> T {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: olm_pk_decryption_size(), alignment: 16)
        defer { memory.deallocate() }
        let decryption = olm_pk_decryption(memory)!
        defer { olm_clear_pk_decryption(decryption) }
        var publicKey = [UInt8](repeating: 0, count: olm_pk_key_length())
        var key = privateKey
        if olm_pk_key_from_private(decryption, &publicKey, publicKey.count, &key, key.count) == olm_error() {
            throw LibolmRefusal(description: String(cString: olm_pk_decryption_last_error(decryption)))
        }
        return try body(decryption, String(decoding: publicKey, as: UTF8.self))
    }
}
