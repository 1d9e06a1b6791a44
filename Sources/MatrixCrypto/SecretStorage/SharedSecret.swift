import ThreadModel

/// A secret one of our own devices sent us (`m.secret.send`), checked against what the server
/// publishes before anything keeps it: a cross-signing seed must give the published public key
/// of its usage, a backup key the public key of the current backup version (when there is one).
/// A device that sent us anything else could make us sign with, or back up to, keys it chose.
public struct SharedSecret: Sendable, CustomStringConvertible {
    /// The secrets we share between our devices: the spec's names, also their account-data types.
    public enum Name: String, Sendable, CaseIterable, Codable {
        case master = "m.cross_signing.master"
        case selfSigning = "m.cross_signing.self_signing"
        case userSigning = "m.cross_signing.user_signing"
        case backup = "m.megolm_backup.v1"

        /// The three cross-signing seeds.
        public static let crossSigning: [Name] = [.master, .selfSigning, .userSigning]
    }

    /// Why a shared secret was not taken, in words; never holds the secret.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { "a shared secret was not taken: \(reason)" }
    }

    public let name: Name
    /// The 32 private bytes (an Ed25519 seed or a Curve25519 private key).
    public let bytes: [UInt8]

    /// Reads `secret` (base64, padded or not) as the secret `name` and checks it: a cross-signing
    /// seed against `identity` (our published one, already checked against our pin), a backup key
    /// against `backupPublicKey` (unpadded base64 of the current backup version's `public_key`;
    /// nil: the account has no backup to check it against).
    public init(name: Name, secret: String, identity: CrossSigningIdentity?, backupPublicKey: String?) throws {
        guard let bytes = UnpaddedBase64.decode(secret), bytes.count == 32 else {
            throw Refusal("the \(name.rawValue) secret is not a 32-byte key in base64")
        }
        let publicKey: [UInt8]
        let published: [UInt8]?
        switch name {
        case .master, .selfSigning, .userSigning:
            guard let identity else { throw Refusal("our account publishes no cross-signing identity to check it against") }
            publicKey = try Ed25519KeyPair(seed: bytes).publicKey
            published = switch name {
            case .master: identity.master.publicKey
            case .selfSigning: identity.selfSigning.publicKey
            default: identity.userSigning?.publicKey
            }
            guard published != nil else { throw Refusal("our account publishes no user-signing key to check it against") }
        case .backup:
            publicKey = try Curve25519KeyPair(privateKey: bytes).publicKey
            guard let backupPublicKey else {
                published = nil
                break
            }
            guard let key = UnpaddedBase64.decode(backupPublicKey), key.count == 32 else {
                throw Refusal("the backup's public key on the server is not a 32-byte key")
            }
            published = key
        }
        if let published, !ConstantTime.equal(published, publicKey) {
            throw Refusal("the \(name.rawValue) secret is not the key our account publishes")
        }
        self.name = name
        self.bytes = bytes
    }

    /// The secret as it is sent and kept: unpadded base64.
    public var base64: String { UnpaddedBase64.encode(bytes) }

    /// Names the secret, never its bytes.
    public var description: String { "shared secret \(name.rawValue)" }
}

/// Dumping shows the name only.
extension SharedSecret: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["name": name.rawValue]) }
}
