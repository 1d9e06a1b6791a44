/// How far a sender of an end-to-end encrypted room is trusted, shown beside their name on each
/// of their comments: quietly when verified, with a small mark when not, loudly when their
/// identity changed (they may not be who wrote before). Clear rooms show nothing.
public enum SenderTrust: Equatable, Sendable {
    /// Their identity is one we verified: ours once this device is verified, another user's once
    /// our user-signing key signed their master key (what verifying them does).
    case verified
    /// Not verified (or they have no cross-signing identity): they may be who they say.
    case unverified
    /// Their identity is not the one first seen.
    case identityChanged
}

/// One device of a member as the member page lists it: hostile text (its id and name come from
/// the server and its owner), shown with controls as placeholders.
public struct MemberDevice: Equatable, Sendable {
    public let deviceID: String
    public let name: String?
    /// Signed by its owner's cross-signing identity (the one we know for them).
    public let crossSigned: Bool

    public init(deviceID: String, name: String?, crossSigned: Bool) {
        self.deviceID = deviceID
        self.name = name
        self.crossSigned = crossSigned
    }
}
