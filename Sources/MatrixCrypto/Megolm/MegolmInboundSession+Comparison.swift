/// Which of two copies of a session to keep when another key for it arrives (a forwarded key, a
/// backup, the sender sharing again): the one that decrypts from an earlier index, but only
/// when both are truly the same session. A key that claims the session's id with a ratchet that
/// does not lead to ours is someone else's invention and replaces nothing.
extension MegolmInboundSession {
    /// How another copy of a session compares with this one.
    public enum Comparison: Sendable, Equatable {
        /// The same session from the same first index.
        case equal
        /// The same session, decrypting from an earlier index than this one: keep it instead.
        case better
        /// The same session from a later index: keep this one.
        case worse
        /// Not the same session (another signing key, or ratchets that do not meet).
        case unconnected
    }

    /// How `other` compares with this session. The copy from the earlier index is advanced to
    /// the later one's and the ratchets compared in constant time.
    public func compare(_ other: MegolmInboundSession) -> Comparison {
        guard ConstantTime.equal(signingKey, other.signingKey) else { return .unconnected }
        let (earlier, later) = firstKnownIndex <= other.firstKnownIndex
            ? (initialRatchet, other.initialRatchet) : (other.initialRatchet, initialRatchet)
        var advanced = earlier
        guard (try? advanced.advance(to: later.index)) != nil, ConstantTime.equal(advanced.bytes, later.bytes) else {
            return .unconnected
        }
        if firstKnownIndex == other.firstKnownIndex { return .equal }
        return other.firstKnownIndex < firstKnownIndex ? .better : .worse
    }
}
