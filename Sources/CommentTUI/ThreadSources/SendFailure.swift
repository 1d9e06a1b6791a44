/// Why a comment of the reader's was not sent: what kind of failure it was, for the app to act on,
/// and the words the status bar and the feed say (`message`, shown as it is today).
public struct SendFailure: Error, Equatable, Sendable, KindedReason {
    /// What went wrong, as far as the source knows.
    public enum Kind: String, Equatable, Sendable {
        /// The server refused it for good (a 4xx other than a rate limit).
        case refused
        /// Too large for the thread (a Matrix event's size limit): refused before it left.
        case tooLarge
        /// The server took it and never answered usably, a few times over: given up on.
        case gaveUp
        /// The room is end-to-end encrypted and nothing may be sent there yet: refused or held.
        case encryptedRoom
        /// The thread file could not be written (removed, not writable, locked badly).
        case notWritable
        /// It could not be kept in the outbox before sending, so it was not sent.
        case notKept
        /// Not known (a reason kept as words only, as an older outbox file has it).
        case unknown
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// The words for the status bar and the feed's `not sent: …`.
    public var message: String

    public static var unknownKind: Kind { .unknown }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
