/// Why a verification was cancelled (`m.key.verification.cancel`'s `code`), and the words a
/// person reads for it.
public enum VerificationCancelCode: Sendable, Equatable, Hashable {
    /// `m.user`: a person cancelled (or declined the request).
    case user
    /// `m.timeout`: it took too long.
    case timeout
    /// `m.unknown_transaction`: the other device did not know this verification.
    case unknownTransaction
    /// `m.unknown_method`: the two devices share no method (key agreement, hash, MAC or SAS form).
    case unknownMethod
    /// `m.unexpected_message`: a message came out of order.
    case unexpectedMessage
    /// `m.key_mismatch`: the keys MAC'd were not the ones expected.
    case keyMismatch
    /// `m.user_mismatch`: the message came from another user than expected.
    case userMismatch
    /// `m.invalid_message`: a message was malformed.
    case invalidMessage
    /// `m.accepted`: another device of the user answered the request.
    case accepted
    /// `m.mismatched_commitment`: the other device's key is not the one it committed to.
    case mismatchedCommitment
    /// `m.mismatched_sas`: a person said the emoji (or numbers) differ.
    case mismatchedSas
    /// A code this client does not know, as sent (shown escaped, like any text from the network).
    case other(String)

    public init(code: String) {
        self = Self.known.first { $0.code == code } ?? .other(code)
    }

    private static let known: [VerificationCancelCode] = [
        .user, .timeout, .unknownTransaction, .unknownMethod, .unexpectedMessage, .keyMismatch, .userMismatch,
        .invalidMessage, .accepted, .mismatchedCommitment, .mismatchedSas,
    ]

    /// The code as the spec spells it.
    public var code: String {
        switch self {
        case .user: "m.user"
        case .timeout: "m.timeout"
        case .unknownTransaction: "m.unknown_transaction"
        case .unknownMethod: "m.unknown_method"
        case .unexpectedMessage: "m.unexpected_message"
        case .keyMismatch: "m.key_mismatch"
        case .userMismatch: "m.user_mismatch"
        case .invalidMessage: "m.invalid_message"
        case .accepted: "m.accepted"
        case .mismatchedCommitment: "m.mismatched_commitment"
        case .mismatchedSas: "m.mismatched_sas"
        case .other(let code): code
        }
    }

    /// What happened, in words (also the `reason` we send).
    public var words: String {
        switch self {
        case .user: "the verification was cancelled"
        case .timeout: "the verification timed out"
        case .unknownTransaction: "the other device did not know this verification"
        case .unknownMethod: "the devices share no verification method"
        case .unexpectedMessage: "a verification message came out of order"
        case .keyMismatch: "the keys did not match: do not trust this device"
        case .userMismatch: "a verification message came from another user"
        case .invalidMessage: "a verification message was malformed"
        case .accepted: "another device answered the request"
        case .mismatchedCommitment: "the other device's key was not the one it committed to: do not trust it"
        case .mismatchedSas: "the emoji did not match: do not trust this device"
        case .other(let code): "the verification was cancelled (\(code))"
        }
    }
}
