/// Which of two copies of a session to keep when another key for it arrives (a forwarded key, a
/// backup, the sender sharing again): the one that decrypts from an earlier index, but only
/// when both are truly the same session. A key that claims the session's id with a ratchet that
/// does not lead to ours is someone else's invention and replaces nothing, except that a signed
/// session key (only the session's owner can sign one) always replaces an unsigned copy: else a
/// forged forwarded key that arrived first would shut out the genuine `m.room_key`.
extension MegolmInboundSession {
    /// How another copy of a session compares with this one.
    public enum Comparison: Sendable, Equatable {
        /// The same session from the same first index.
        case equal
        /// Keep it instead: the same session decrypting from an earlier index, or a signed key
        /// where this copy is unsigned (at the same index, or not leading to it: a forgery).
        case better
        /// The same session from a later index: keep this one.
        case worse
        /// Not the same session (another signing key, or ratchets that do not meet when neither
        /// or both are signed).
        case unconnected
    }

    /// How `other` compares with this session. The copy from the earlier index is advanced to
    /// the later one's and the ratchets compared in constant time.
    public func compare(_ other: MegolmInboundSession) -> Comparison {
        guard ConstantTime.equal(signingKey, other.signingKey) else { return .unconnected }
        let signedReplacesUnsigned = other.isSigned && !isSigned
        guard connects(with: other) else { return signedReplacesUnsigned ? .better : .unconnected }
        if firstKnownIndex == other.firstKnownIndex { return signedReplacesUnsigned ? .better : .equal }
        return other.firstKnownIndex < firstKnownIndex ? .better : .worse
    }

    /// The copy to keep of this one and `other`, as `compare` says; when the two are the same
    /// session and either is signed, the one kept counts as signed (its ratchet leads to a
    /// signed one's). Another session's copy leaves this one as it is.
    public func merging(_ other: MegolmInboundSession) -> MegolmInboundSession {
        var kept: MegolmInboundSession
        switch compare(other) {
        case .better: kept = other
        case .equal, .worse: kept = self
        case .unconnected: return self
        }
        if connects(with: other) { kept.isSigned = isSigned || other.isSigned }
        return kept
    }

    /// Whether the two copies are the same session: the same key, and the earlier one's ratchet
    /// advanced to the later one's index equals it.
    private func connects(with other: MegolmInboundSession) -> Bool {
        guard ConstantTime.equal(signingKey, other.signingKey) else { return false }
        let (earlier, later) = firstKnownIndex <= other.firstKnownIndex
            ? (initialRatchet, other.initialRatchet) : (other.initialRatchet, initialRatchet)
        var advanced = earlier
        return (try? advanced.advance(to: later.index)) != nil && ConstantTime.equal(advanced.bytes, later.bytes)
    }
}
