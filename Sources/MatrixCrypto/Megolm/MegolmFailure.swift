/// Why a Megolm message or key was refused, in words a person can read (shown in place of an
/// undecryptable message). Never carries key bytes or plaintext.
public struct MegolmFailure: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The kind of failure, for code that reacts differently (ask for the key, or give up).
    public enum Reason: String, Sendable, Codable {
        /// The message is older than the first index our copy of the session knows.
        case unknownMessageIndex
        /// The sender's Ed25519 signature does not check: forged or damaged.
        case badSignature
        /// The message's MAC does not check: the wrong key or a damaged message.
        case badMAC
        /// The bytes are not a Megolm message or key of the version we read.
        case badFormat
    }

    /// The kind of failure.
    public let reason: Reason
    /// What exactly, in words ("the message index is before the first known index 5").
    public let detail: String

    /// A failure of `reason`, `detail` saying what exactly (never with key bytes in it).
    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The reason and detail as a person reads them in place of the message.
    public var description: String {
        switch reason {
        case .unknownMessageIndex: "unknown message index (\(detail))"
        case .badSignature: "bad signature (\(detail))"
        case .badMAC: "bad MAC (\(detail))"
        case .badFormat: "bad format (\(detail))"
        }
    }
}
