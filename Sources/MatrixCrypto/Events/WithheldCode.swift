/// Why a sender did not share a room key with us (`m.room_key.withheld`'s `code`), and what
/// that means for a person looking at a message they cannot read.
public enum WithheldCode: Sendable, Equatable, Codable {
    /// `m.blacklisted`: the sender blocked this device.
    case blacklisted
    /// `m.unverified`: the sender shares keys only with verified (cross-signed) devices.
    case unverified
    /// `m.unauthorised`: the sender will not share this session's key with us (e.g. joined later).
    case unauthorised
    /// `m.unavailable`: asked for a key the device does not have.
    case unavailable
    /// `m.no_olm`: the sender could not make an Olm session with this device.
    case noOlm
    /// A code this client does not know (kept, shown as the server sent it, escaped).
    case other(String)

    public init(code: String) {
        switch code {
        case "m.blacklisted": self = .blacklisted
        case "m.unverified": self = .unverified
        case "m.unauthorised": self = .unauthorised
        case "m.unavailable": self = .unavailable
        case "m.no_olm": self = .noOlm
        default: self = .other(code)
        }
    }

    /// The reason in words, for "unable to decrypt: …".
    public var words: String {
        switch self {
        case .blacklisted: "the sender blocked this device"
        case .unverified: "the sender shares keys only with verified devices (enter the recovery key: comment-tui verify --recovery-key)"
        case .unauthorised: "the sender did not share this message's key with this device"
        case .unavailable: "no device had this message's key"
        case .noOlm: "the sender could not set up a secure channel with this device"
        case .other(let code): "the sender withheld the key (\(code))"
        }
    }
}
