import ThreadModel

/// The key pair of a key backup (`m.megolm_backup.v1.curve25519-aes-sha2`): sessions are
/// encrypted to its public key (`auth_data.public_key`) and opened with its private key, which
/// secret storage keeps as the secret `m.megolm_backup.v1` (unpadded base64). `Codable` for the
/// crypto store; printing shows the public key only.
public struct MegolmBackupKey: Sendable {
    /// The backup algorithm this key serves.
    public static let algorithm = "m.megolm_backup.v1.curve25519-aes-sha2"
    /// The name of its secret in secret storage (and of the account-data event holding it).
    public static let secretName = "m.megolm_backup.v1"

    let keyPair: Curve25519KeyPair

    /// The key of a 32-byte private key.
    public init(privateKey: [UInt8]) throws {
        guard privateKey.count == 32 else { throw MegolmBackupRefusal("the backup key is not 32 bytes") }
        keyPair = try Curve25519KeyPair(privateKey: privateKey)
    }

    /// The key of the secret `m.megolm_backup.v1` as secret storage holds it (base64).
    public init(secret: String) throws {
        guard let bytes = UnpaddedBase64.decode(secret) else {
            throw MegolmBackupRefusal("the backup key in secret storage is not base64")
        }
        try self.init(privateKey: bytes)
    }

    /// A new key (creating a backup).
    public static func generate(random: inout some RandomSource) throws -> MegolmBackupKey {
        try MegolmBackupKey(privateKey: random.bytes(32))
    }

    /// The public key (32 bytes).
    public var publicKey: [UInt8] { keyPair.publicKey }
    /// The public key as `auth_data.public_key` has it.
    public var publicKeyBase64: String { UnpaddedBase64.encode(keyPair.publicKey) }
    /// The secret to keep in secret storage. Never shown.
    public var secret: String { UnpaddedBase64.encode(keyPair.privateKey) }

    /// `session` encrypted for this backup (the `session_data` of an upload).
    public func encrypt(_ session: MegolmBackupSession, random: inout some RandomSource) throws -> MegolmBackupCiphertext {
        try MegolmBackupCipher.encrypt(CanonicalJSON.encode(session.json), to: keyPair.publicKey, random: &random)
    }

    /// The session in a backed-up `session_data`; refused when it is not ours to open or not a session.
    public func decrypt(sessionData: JSONValue) throws -> MegolmBackupSession {
        let plaintext = try MegolmBackupCipher.decrypt(MegolmBackupCiphertext(json: sessionData), with: keyPair)
        guard let json = try? JSONValue(parsing: .init(plaintext)) else {
            throw MegolmBackupRefusal("a backed-up session decrypted to something that is not JSON")
        }
        return try MegolmBackupSession(json: json)
    }
}

extension MegolmBackupKey: Codable {
    private enum CodingKeys: String, CodingKey { case privateKey }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .privateKey)
        guard let bytes = UnpaddedBase64.decode(text), bytes.count == 32 else {
            throw DecodingError.dataCorruptedError(forKey: .privateKey, in: container, debugDescription: "not a 32-byte key")
        }
        try self.init(privateKey: bytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(secret, forKey: .privateKey)
    }
}

/// Printing, dumping or a test failure shows the public key only, never the private one.
extension MegolmBackupKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "MegolmBackupKey(public \(publicKeyBase64))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKeyBase64]) }
}
