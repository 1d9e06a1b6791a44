import MatrixCrypto

extension VerificationPrompt {
    /// The prompt for a verification as the account's `MatrixVerifications` has it now.
    init(_ verification: MatrixVerification) {
        let stage: Stage = switch verification.stage {
        case .incoming: .asked
        case .waitingForThem: .waiting(for: "to accept")
        case .exchangingKeys: .waiting(for: "to exchange keys")
        case .comparing: .compare(emoji: verification.emoji.map { Symbol(emoji: $0.symbol, name: $0.name) },
                                  decimals: verification.decimals)
        case .confirmed: .confirmed
        case .verified: .verified
        case .cancelled: .cancelled(reason: verification.words)
        }
        self.init(user: verification.userID, displayName: nil, device: verification.deviceID,
                  isOwnDevice: verification.isOwnDevice, stage: stage, weAsked: verification.weRequested,
                  note: stage == .verified ? verification.trustNote : nil)
    }
}
