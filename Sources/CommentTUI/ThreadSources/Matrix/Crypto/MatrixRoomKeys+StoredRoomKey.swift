import MatrixCrypto

extension MatrixRoomKeys.StoredRoomKey {
    /// This kept key improved by `arriving`, a copy of the same session from an earlier index
    /// handed on (a backup, a forwarded key, a key file) with `origin`: the earlier ratchet is
    /// taken, but a key that was its sender's keeps its standing (the ratchets meet, so the
    /// earlier part is bound to the same signed session) and the signing key its sender claimed.
    func improved(by arriving: Self, origin: RoomKeyOrigin) -> Self {
        let merged = session.merging(arriving.session)
        return Self(session: merged, senderKey: senderKey, claimedSigningKey: claimedSigningKey ?? arriving.claimedSigningKey,
                    origin: merged.isSigned ? self.origin : origin)
    }
}
