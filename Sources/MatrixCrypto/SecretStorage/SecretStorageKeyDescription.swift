import ThreadModel

/// A secret storage key's description, the content of the account-data event
/// `m.secret_storage.key.<key id>` (Client-Server API, "Key storage"): its algorithm, how a
/// passphrase makes it (`m.pbkdf2`), and the `iv` and `mac` that tell whether a key is the right one.
public struct SecretStorageKeyDescription: Sendable, Equatable, Codable {
    /// The only algorithm there is: AES-CTR-256 with HMAC-SHA-256.
    public static let algorithm = "m.secret_storage.v1.aes-hmac-sha2"
    /// The account-data type holding which key is the default: `{"key": "<key id>"}`.
    public static let defaultKeyEventType = "m.secret_storage.default_key"
    /// Passphrases iterate at most this often: more is a hostile description making us spin.
    static let maximumIterations = 10_000_000

    /// How a passphrase becomes the key: PBKDF2-HMAC-SHA-512 over the passphrase's UTF-8.
    public struct Passphrase: Sendable, Equatable, Codable {
        /// The salt as the description gives it; its UTF-8 bytes are the salt.
        public let salt: String
        public let iterations: Int
        /// The key's length in bits (always 256 for this algorithm).
        public let bits: Int

        public init(salt: String, iterations: Int, bits: Int = 256) {
            self.salt = salt
            self.iterations = iterations
            self.bits = bits
        }
    }

    /// The id in the event type after `m.secret_storage.key.`.
    public let keyID: String
    /// The name a person gave the key, if any.
    public let name: String?
    /// Present when the key can come from a passphrase.
    public let passphrase: Passphrase?
    /// The check: encrypting 32 zero bytes under the empty name with this IV gives this MAC.
    /// Both are absent in keys made before the spec added them; such keys cannot be checked.
    public let iv: [UInt8]?
    public let mac: [UInt8]?

    public init(keyID: String, name: String?, passphrase: Passphrase?, iv: [UInt8]?, mac: [UInt8]?) {
        self.keyID = keyID
        self.name = name
        self.passphrase = passphrase
        self.iv = iv
        self.mac = mac
    }

    /// The account-data event type of the key `keyID`.
    public static func eventType(keyID: String) -> String { "m.secret_storage.key.\(keyID)" }

    /// Which key is the default, from the content of `m.secret_storage.default_key`.
    public static func defaultKeyID(from content: JSONValue) throws -> String {
        guard let keyID = content["key"]?.string, !keyID.isEmpty else {
            throw SecretStorageRefusal("the account's default secret storage key is not named")
        }
        return keyID
    }

    /// The default key's description from the account's account data (event type → content, as
    /// sync delivers it); refused, in words, when the account has no secret storage.
    public static func defaultKey(in accountData: [String: JSONValue]) throws -> SecretStorageKeyDescription {
        guard let pointer = accountData[defaultKeyEventType] else {
            throw SecretStorageRefusal("this account has no secret storage (set up a recovery key in Element first)")
        }
        let keyID = try defaultKeyID(from: pointer)
        guard let content = accountData[eventType(keyID: keyID)] else {
            throw SecretStorageRefusal("this account's default secret storage key has no description")
        }
        return try SecretStorageKeyDescription(keyID: keyID, content: content)
    }

    /// Reads the content of `m.secret_storage.key.<keyID>`.
    public init(keyID: String, content: JSONValue) throws {
        guard content.object != nil else { throw SecretStorageRefusal("the secret storage key description is not an object") }
        guard content["algorithm"]?.string == Self.algorithm else {
            throw SecretStorageRefusal("the secret storage key uses an algorithm we do not know")
        }
        let passphrase = try content["passphrase"].map(Self.readPassphrase)
        var iv: [UInt8]?, mac: [UInt8]?
        if let ivText = content["iv"]?.string, let macText = content["mac"]?.string {
            guard let ivBytes = UnpaddedBase64.decode(ivText), ivBytes.count == 16 else {
                throw SecretStorageRefusal("the secret storage key's check has an IV that is not 16 bytes of base64")
            }
            guard let macBytes = UnpaddedBase64.decode(macText), macBytes.count == 32 else {
                throw SecretStorageRefusal("the secret storage key's check has a MAC that is not 32 bytes of base64")
            }
            (iv, mac) = (ivBytes, macBytes)
        }
        self.init(keyID: keyID, name: content["name"]?.string, passphrase: passphrase, iv: iv, mac: mac)
    }

    /// The event content: what `init(keyID:content:)` reads.
    public var content: JSONValue {
        var members: [String: JSONValue] = ["algorithm": .string(Self.algorithm)]
        if let name { members["name"] = .string(name) }
        if let iv, let mac {
            members["iv"] = .string(UnpaddedBase64.encode(iv))
            members["mac"] = .string(UnpaddedBase64.encode(mac))
        }
        if let passphrase {
            members["passphrase"] = [
                "algorithm": "m.pbkdf2", "salt": .string(passphrase.salt),
                "iterations": .number(Double(passphrase.iterations)), "bits": .number(Double(passphrase.bits)),
            ]
        }
        return .object(members)
    }

    private static func readPassphrase(_ value: JSONValue) throws -> Passphrase {
        guard value["algorithm"]?.string == "m.pbkdf2" else {
            throw SecretStorageRefusal("the secret storage passphrase uses an algorithm we do not know")
        }
        guard let salt = value["salt"]?.string else { throw SecretStorageRefusal("the secret storage passphrase has no salt") }
        guard let iterations = value["iterations"]?.int, (1 ... maximumIterations).contains(iterations) else {
            throw SecretStorageRefusal("the secret storage passphrase has an iteration count out of range")
        }
        let bits = value["bits"].map { $0.int ?? -1 } ?? 256
        guard bits == 256 else { throw SecretStorageRefusal("the secret storage passphrase makes a key of a length we do not use") }
        return Passphrase(salt: salt, iterations: iterations, bits: bits)
    }
}
