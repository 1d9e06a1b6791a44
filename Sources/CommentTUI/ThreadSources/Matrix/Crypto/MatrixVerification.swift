import MatrixCrypto

/// One interactive verification as the screen shows it: with whom, where it stands, the emoji
/// and numbers to compare, and how it ended. A value, taken from `MatrixVerifications.all`.
/// Names, ids and the other side's reason are text from the network: escape them when shown.
struct MatrixVerification: Sendable, Equatable {
    /// Where it stands, for what the screen offers.
    enum Stage: Sendable, Equatable {
        /// We asked; waiting for the other device (offer: cancel).
        case waitingForThem
        /// They asked (or started); waiting for our person (offer: accept, cancel).
        case incoming
        /// Keys being exchanged (offer: cancel).
        case exchangingKeys
        /// The emoji and numbers are there (offer: they match, they differ, cancel).
        case comparing
        /// We said they match; waiting for the other side to say so too (offer: cancel).
        case confirmed
        /// Both sides confirmed and the keys checked.
        case verified
        /// It ended without verifying: `words` says why.
        case cancelled
    }

    /// Its id (the flow id: transaction id, or the request's event id in a room).
    let id: String
    let userID: String
    /// The other device, once known (nil while a request to all of a user's devices waits).
    let deviceID: String?
    /// The other device's name, when its owner gave one.
    let deviceName: String?
    /// Whether it is one of our own devices.
    let isOwnDevice: Bool
    let weRequested: Bool
    let stage: Stage
    /// The seven emoji with their names, once there.
    let emoji: [SasEmoji]
    /// The three numbers (the decimal form), once there.
    let decimals: [Int]
    /// Where it stands or how it ended, in words (a cancel's code in words, and theirs said as theirs).
    let words: String
    /// The cancel's code when it was cancelled.
    let cancelCode: VerificationCancelCode?
    /// What was done with the trust on success (signed with our cross-signing key, or marked verified here).
    let trustNote: String?
}
