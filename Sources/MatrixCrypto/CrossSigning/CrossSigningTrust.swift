import ThreadModel

/// Whom we trust, by trust on first use of each user's master key: the first master key seen for
/// a user is pinned; a different one later is a changed identity, reported (loudly, by the
/// client) until a person accepts it. Pure and `Codable`, for the crypto store.
public struct CrossSigningTrust: Sendable, Equatable, Codable {
    /// What an identity is, against the pinned master key.
    public enum IdentityStatus: Sendable, Equatable {
        /// Not seen before; `observe` pins it.
        case firstSeen
        /// The pinned master key.
        case unchanged
        /// Another master key than the pinned one (given, in base64: it is public).
        case changed(pinnedMasterKey: String)
    }

    /// What a device is, for the room-key sharing and the sender checks.
    public enum DeviceStatus: Sendable, Equatable {
        /// Signed by its user's self-signing key, under the pinned (or first-seen) master key.
        case crossSigned
        /// Signed, but under a master key other than the pinned one.
        case crossSignedByChangedIdentity
        /// Not cross-signed: why, in words.
        case notCrossSigned(reason: String)
    }

    /// User id → pinned master key (unpadded base64).
    public private(set) var pinnedMasterKeys: [String: String]

    public init(pinnedMasterKeys: [String: String] = [:]) { self.pinnedMasterKeys = pinnedMasterKeys }

    /// `identity` against the pin, without changing anything.
    public func status(of identity: CrossSigningIdentity) -> IdentityStatus {
        guard let pinned = pinnedMasterKeys[identity.userID] else { return .firstSeen }
        return pinned == identity.master.publicKeyBase64 ? .unchanged : .changed(pinnedMasterKey: pinned)
    }

    /// `identity`'s status, pinning it when it is the first seen for its user. A changed one
    /// stays changed (the old pin kept) until `acceptChange`.
    public mutating func observe(_ identity: CrossSigningIdentity) -> IdentityStatus {
        let status = status(of: identity)
        if status == .firstSeen { pinnedMasterKeys[identity.userID] = identity.master.publicKeyBase64 }
        return status
    }

    /// Pins `identity`'s master key in place of the old one (a person saw the change and accepts it).
    public mutating func acceptChange(to identity: CrossSigningIdentity) {
        pinnedMasterKeys[identity.userID] = identity.master.publicKeyBase64
    }

    /// Whether `deviceKeys` is cross-signed by `identity` (its user's, already checked: the
    /// self-signing key signed by the master key), and whether that identity is the pinned one.
    public func deviceStatus(deviceKeys: JSONValue, identity: CrossSigningIdentity?) -> DeviceStatus {
        guard let identity else { return .notCrossSigned(reason: "its user has not set up cross-signing") }
        guard deviceKeys["user_id"]?.string == identity.userID else {
            return .notCrossSigned(reason: "the device belongs to another user than the identity")
        }
        guard identity.hasCrossSigned(deviceKeys: deviceKeys) else {
            return .notCrossSigned(reason: "its user's self-signing key has not signed it")
        }
        if case .changed = status(of: identity) { return .crossSignedByChangedIdentity }
        return .crossSigned
    }
}
