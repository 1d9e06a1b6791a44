/// Why an Olm message did not decrypt (or a pre-key message did not start a session), in
/// words a person can read. Never carries key bytes or plaintext.
public struct OlmDecryptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, for code that acts on it (a bad MAC on a pre-key message may mean
    /// "try another session"; an unknown one-time key may mean the keys were replaced).
    public enum Reason: String, Equatable, Sendable {
        /// The message's MAC does not check: damaged, forged, or for another session.
        case badMAC
        /// A version byte other than Olm's 3.
        case unknownVersion
        /// Not laid out as an Olm message: truncated, a field missing or of the wrong length.
        case badFormat
        /// The message claims to be more messages ahead than we are prepared to skip.
        case tooFarAhead
        /// Its message key was already used (a replay) or dropped as too old.
        case duplicateOrTooOld
        /// The sender moved to a new ratchet key before we had replied: out of protocol.
        case unexpectedRatchetKey
        /// The pre-key message names a one-time key this account does not have (used or unknown).
        case unknownOneTimeKey
        /// The pre-key message's identity key is not the sender's we expected.
        case identityKeyMismatch
        /// The pre-key message was not made for this session.
        case sessionMismatch
        /// A key in the message is not a usable Curve25519 key.
        case invalidKey
        /// The crypto library refused a step (a broken configuration): nothing about the message.
        case libraryFailure
    }

    /// What went wrong.
    public let reason: Reason
    /// More words on it (which field, which limit); never secret bytes.
    public let detail: String

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String {
        let words = switch reason {
        case .badMAC: "the message's MAC does not check"
        case .unknownVersion: "an unknown Olm version"
        case .badFormat: "not an Olm message"
        case .tooFarAhead: "the message is too far ahead"
        case .duplicateOrTooOld: "the message was already decrypted, or its key is too old"
        case .unexpectedRatchetKey: "the sender changed ratchet keys out of turn"
        case .unknownOneTimeKey: "the one-time key it was sent to is used or unknown"
        case .identityKeyMismatch: "it comes from another identity key than expected"
        case .sessionMismatch: "it belongs to another session"
        case .invalidKey: "it carries an invalid key"
        case .libraryFailure: "the crypto library failed"
        }
        return detail.isEmpty ? words : "\(words) (\(detail))"
    }
}
