import Foundation
import ThreadModel

/// Matrix's limit on an event's size, checked before sending: a homeserver refuses an event
/// whose serialized form passes 65,536 bytes (`413 M_TOO_LARGE`), and no retry changes that.
///
/// What we send is only the content: the server wraps it in an envelope (room id, sender, type,
/// timestamps, event id, `prev_events`, `auth_events`, hashes, signatures, `unsigned`) before it
/// measures. Those fields are bounded by the spec (ids of at most 255 bytes, a few prev/auth
/// events), so the content may use what is left after a generous allowance for them.
enum MatrixEventSize {
    /// The spec's limit on a whole event, in bytes of its JSON.
    static let eventLimit = 65_536
    /// What the envelope may take: ids and server names up to 255 bytes, up to 20 prev and
    /// auth event ids, hashes and a signature, `unsigned`, and room to spare.
    static let envelopeAllowance = 4_096
    /// The most content bytes sent.
    static let contentLimit = eventLimit - envelopeAllowance

    /// Why the content cannot be sent, worded for the composer; nil when it fits.
    static func problem(content: JSONValue) -> String? {
        let bytes = content.serialized().count
        guard bytes > contentLimit else { return nil }
        return "too long for a Matrix event (\(kilobytes(bytes)) KB; at most \(kilobytes(contentLimit)) KB): shorten it"
    }

    /// Bytes in KB, rounded up so a text just over the limit never reads as at it.
    private static func kilobytes(_ bytes: Int) -> Int { (bytes + 1023) / 1024 }
}
