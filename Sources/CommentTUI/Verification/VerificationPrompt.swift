/// One verification as the panel shows it: who is on the other side, where it stands, and,
/// once keys are exchanged, the seven emoji and three numbers both screens show.
///
/// A value made from the protocol's state (`MatrixVerification`) each time it changes; the panel
/// never reaches into the protocol, so it is drawn and tested from values alone.
struct VerificationPrompt: Equatable {
    /// One of the seven emoji, with the name the spec gives it (people read names aloud).
    struct Symbol: Equatable {
        var emoji: String
        var name: String
    }

    /// Where the verification stands.
    enum Stage: Equatable {
        /// The other side asked: the reader accepts or declines.
        case asked
        /// We asked, or accepted: the other side has not answered yet (`what` says what we wait for).
        case waiting(for: String)
        /// Keys exchanged: both screens show these; the reader says whether they match.
        case compare(emoji: [Symbol], decimals: [Int])
        /// The reader said they match; the other side has not yet.
        case confirmed
        /// Both sides said they match and the keys' MACs checked out.
        case verified
        /// It ended without verifying, and why, in words.
        case cancelled(reason: String)

        /// The verification is over: any key closes the panel.
        var isOver: Bool {
            switch self {
            case .verified, .cancelled: true
            case .asked, .waiting, .compare, .confirmed: false
            }
        }
    }

    /// The other side's user id, and their display name when known.
    var user: String
    var displayName: String?
    /// The other side's device, when known (a request to a person names none until one answers).
    var device: String?
    /// The other side is one of the reader's own devices.
    var isOwnDevice: Bool
    var stage: Stage
    /// The reader (or this device) asked for it, rather than the other side.
    var weAsked = false
    /// What was done with the trust once verified (signed with a cross-signing key, or why not).
    var note: String?

    /// Who is verified, as the panel's title says it: `your device ABC`, `Bo (@bo:example.org)`;
    /// `this device` while all our other devices are asked and none has answered.
    var subject: String {
        if isOwnDevice { return device.map { "your device " + VisibleText.escape($0) } ?? "this device" }
        let user = VisibleText.escape(user)
        guard let name = displayName.map({ VisibleText.escape($0) }), !name.isEmpty, name != user else { return user }
        return "\(name) (\(user))"
    }

    /// The other side in a sentence: `Bo`, `your other device`.
    var otherSide: String {
        if isOwnDevice { return "your other device" }
        return displayName.map { VisibleText.escape($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? VisibleText.escape(user)
    }
}
