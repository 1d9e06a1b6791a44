import ThreadModel

/// The key that opens the account's secret storage, checked against its description: from a
/// typed recovery key or from a passphrase (`m.pbkdf2`). Holding one means the check passed
/// (or the description has no check to pass: keys older than the check).
public struct SecretStorageKey: Sendable, CustomStringConvertible {
    /// The key's id (`m.secret_storage.key.<key id>`, `encrypted.<key id>`).
    public let keyID: String
    /// The 32 key bytes.
    public let bytes: [UInt8]

    /// Opens with a typed recovery key; refused with `.wrongRecoveryKey` when it is another key.
    public init(recoveryKey: RecoveryKey, description: SecretStorageKeyDescription) throws {
        guard try Self.passesCheck(recoveryKey.key, description) else { throw SecretStorageRefusal.wrongRecoveryKey }
        self.init(uncheckedKeyID: description.keyID, bytes: recoveryKey.key)
    }

    /// Opens with a passphrase; refused when the key has none or it is the wrong one.
    public init(passphrase: String, description: SecretStorageKeyDescription) throws {
        guard let parameters = description.passphrase else {
            throw SecretStorageRefusal("this account's secret storage key has no passphrase; use the recovery key")
        }
        let bytes = try KeyDerivation.pbkdf2SHA512(password: Array(passphrase.utf8), salt: Array(parameters.salt.utf8),
                                                   iterations: parameters.iterations, length: parameters.bits / 8)
        guard try Self.passesCheck(bytes, description) else { throw SecretStorageRefusal.wrongPassphrase }
        self.init(uncheckedKeyID: description.keyID, bytes: bytes)
    }

    /// A key taken as it is (a new one, or tests).
    init(uncheckedKeyID keyID: String, bytes: [UInt8]) {
        self.keyID = keyID
        self.bytes = bytes
        _checkInvariants()
    }

    /// A new key with its description (the check's IV from `random`), for an account that has none.
    public static func generate(keyID: String, name: String?, random: inout some RandomSource) throws
        -> (key: SecretStorageKey, description: SecretStorageKeyDescription) {
        let key = SecretStorageKey(uncheckedKeyID: keyID, bytes: try random.bytes(32))
        let check = try SecretStorageCipher.encrypt([UInt8](repeating: 0, count: 32), name: "", key: key.bytes, random: &random)
        return (key, SecretStorageKeyDescription(keyID: keyID, name: name, passphrase: nil, iv: check.iv, mac: check.mac))
    }

    /// The recovery key a person writes down for this key.
    public var recoveryKey: RecoveryKey { RecoveryKey(key: bytes) }

    /// The secret `name` from its account-data event's content (`{"encrypted": {"<key id>": …}}`).
    public func decryptSecret(named name: String, eventContent: JSONValue) throws -> String {
        guard let stored = eventContent["encrypted"]?[keyID] else {
            throw SecretStorageRefusal("the secret \(name) is not stored for this account's secret storage key")
        }
        let plaintext = try SecretStorageCipher.decrypt(SecretStorageCipher.Encrypted(json: stored), name: name, key: bytes)
        guard let text = String(validating: plaintext, as: UTF8.self) else {
            throw SecretStorageRefusal("the secret \(name) is not text")
        }
        return text
    }

    /// The content of the secret `name`'s account-data event, encrypted for this key only.
    public func encryptedEventContent(secret: String, named name: String, random: inout some RandomSource) throws -> JSONValue {
        let encrypted = try SecretStorageCipher.encrypt(Array(secret.utf8), name: name, key: bytes, random: &random)
        return ["encrypted": .object([keyID: encrypted.json])]
    }

    /// Names the key, never its bytes.
    public var description: String { "secret storage key \(keyID)" }

    func _checkInvariants() {
        precondition(bytes.count == 32, "a secret storage key is 32 bytes")
    }

    /// Whether `bytes` encrypt 32 zero bytes under the empty name and the description's IV to its
    /// MAC (compared in constant time). A description without a check passes.
    private static func passesCheck(_ bytes: [UInt8], _ description: SecretStorageKeyDescription) throws -> Bool {
        guard bytes.count == 32 else { return false }
        guard let iv = description.iv, let mac = description.mac else { return true }
        let check = try SecretStorageCipher.encrypt([UInt8](repeating: 0, count: 32), name: "", key: bytes, iv: iv)
        return ConstantTime.equal(check.mac, mac)
    }
}

/// Dumping shows the key id only, as printing does.
extension SecretStorageKey: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["keyID": keyID]) }
}
