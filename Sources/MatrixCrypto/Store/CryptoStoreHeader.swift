/// The clear start of the snapshot file: the format, the store's random salt, how a passphrase
/// (if any) is stretched, and two checks that tell a wrong store key and a wrong passphrase
/// apart from damage before anything is decrypted.
///
/// The key check is an HMAC of the parameters under a key derived from the store key alone (so a
/// changed parameter reads as a key that does not match, never as a weaker passphrase); the
/// passphrase check is one under the sealing MAC key, which the passphrase goes into.
struct CryptoStoreHeader: Equatable {
    /// How a passphrase becomes key material: PBKDF2-HMAC-SHA-512 with this salt and count.
    struct Stretching: Equatable {
        var iterations: UInt32
        var salt: [UInt8]
    }

    static let magic: [UInt8] = Array("comment-tui crypto store\n".utf8) + [1]
    static let saltLength = 32
    static let stretchingSaltLength = 16
    static let checkLength = 32
    /// More than any store is made with: a count past it is damage, not minutes of stretching.
    static let maximumIterations: UInt32 = 10_000_000

    /// The store's own salt for HKDF.
    var salt: [UInt8]
    /// Present when the store takes a passphrase.
    var stretching: Stretching?

    /// The parameters as bytes: what the checks cover.
    var parameters: [UInt8] {
        var writer = StoreByteWriter()
        writer.append(Self.magic)
        writer.append(salt)
        if let stretching {
            writer.append(UInt8(1))
            writer.append(stretching.iterations)
            writer.append(stretching.salt)
        } else {
            writer.append(UInt8(0))
        }
        return writer.bytes
    }

    /// The header with its checks, as it starts the file.
    func encoded(with keys: Keys) -> [UInt8] {
        parameters + keys.keyCheck + (stretching == nil ? [] : keys.passphraseCheck)
    }

    /// What a store key (and passphrase) make of this header: the checks it must hold and the seal.
    struct Keys {
        var keyCheck: [UInt8]
        var passphraseCheck: [UInt8]
        var seal: CryptoStoreSeal
    }

    /// The key check `storeKey` makes: cheap, so a wrong key or a changed parameter is found
    /// before a passphrase is stretched with counts the file claims.
    func keyCheck(storeKey: CryptoStoreKey) throws -> [UInt8] {
        let checkKey = try KeyDerivation.hkdfSHA256(key: storeKey.bytes, salt: salt, info: Array("comment-tui crypto store key check".utf8), length: 32)
        return try Digest.hmacSHA256(key: checkKey, data: parameters)
    }

    /// Derives the keys; the passphrase is stretched only when the header asks for it.
    func keys(storeKey: CryptoStoreKey, passphrase: String?) throws -> Keys {
        var master = storeKey.bytes
        if let stretching, let passphrase {
            let stretched = try KeyDerivation.pbkdf2SHA512(password: Array(passphrase.utf8), salt: stretching.salt,
                                                           iterations: Int(stretching.iterations), length: 32)
            master = try KeyDerivation.hkdfSHA256(key: master + stretched, salt: salt, info: Array("comment-tui crypto store passphrase".utf8), length: 32)
        }
        let seal = try CryptoStoreSeal(master: master, salt: salt)
        return Keys(keyCheck: try keyCheck(storeKey: storeKey), passphraseCheck: try seal.check(Array("passphrase check".utf8) + parameters), seal: seal)
    }

    /// Reads a header and its checks from the start of `reader`.
    static func decode(_ reader: inout StoreByteReader) throws -> (header: CryptoStoreHeader, keyCheck: [UInt8], passphraseCheck: [UInt8]?) {
        guard try reader.take(magic.count) == magic else { throw StoreByteReader.Short() }
        let salt = try reader.take(saltLength)
        var stretching: Stretching?
        switch try reader.byte() {
        case 0: break
        case 1:
            let iterations = try reader.uint32()
            guard (1 ... maximumIterations).contains(iterations) else { throw StoreByteReader.Short() }
            stretching = Stretching(iterations: iterations, salt: try reader.take(stretchingSaltLength))
        default: throw StoreByteReader.Short()
        }
        let keyCheck = try reader.take(checkLength)
        let passphraseCheck = stretching == nil ? nil : try reader.take(checkLength)
        return (CryptoStoreHeader(salt: salt, stretching: stretching), keyCheck, passphraseCheck)
    }
}
