import ThreadModel

/// One key-verification message as received (`m.key.verification.*` to-device, or in a room),
/// read and checked for the fields the spec requires; anything malformed is refused with a
/// reason, never trapped on: its content comes from the network.
public enum VerificationMessage: Sendable, Equatable {
    case request(fromDevice: String, methods: [String], timestamp: Int64?)
    case ready(fromDevice: String, methods: [String])
    case start(SasStart)
    case accept(SasAccept)
    /// The sender's ephemeral public key: its 32 bytes and the text it came as.
    case key(publicKey: [UInt8], text: String)
    /// `keys`: the MAC of the key id list; `macs`: key id → MAC.
    case mac(keys: String, macs: [String: String])
    case done
    case cancel(code: VerificationCancelCode, reason: String)

    /// The method this client does verifications with.
    public static let sasMethod = "m.sas.v1"
    public static let keyAgreement = "curve25519-hkdf-sha256"
    public static let hash = "sha256"
    public static let macMethod = "hkdf-hmac-sha256.v2"
    /// The SAS forms, in the order the spec lists them.
    public static let sasForms = ["decimal", "emoji"]

    /// Why a message was not read.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "verification message refused: \(reason)" }
    }

    /// The parts of `m.key.verification.start` (method `m.sas.v1`), with the content whole: the
    /// commitment covers it.
    public struct SasStart: Sendable, Equatable {
        public let fromDevice: String
        public let method: String
        public let keyAgreementProtocols: [String]
        public let hashes: [String]
        public let messageAuthenticationCodes: [String]
        public let shortAuthenticationStrings: [String]
        public let content: JSONValue
    }

    /// The parts of `m.key.verification.accept`.
    public struct SasAccept: Sendable, Equatable {
        public let keyAgreementProtocol: String
        public let hash: String
        public let messageAuthenticationCode: String
        public let shortAuthenticationStrings: [String]
        public let commitment: String
    }

    /// Reads an event of `type` and `content`: `m.key.verification.<step>`, or an
    /// `m.room.message` whose `msgtype` is `m.key.verification.request` (a request in a room).
    public init(type: String, content: JSONValue) throws {
        guard content.object != nil else { throw Refusal(reason: "its content is not an object") }
        func text(_ key: String) throws -> String {
            guard let value = content[key]?.string else { throw Refusal(reason: "no \(key)") }
            return value
        }
        func texts(_ key: String) throws -> [String] {
            guard let values = content[key]?.array else { throw Refusal(reason: "no \(key) list") }
            return values.compactMap(\.string)
        }
        switch type {
        case "m.room.message":
            guard content["msgtype"]?.string == "m.key.verification.request" else { throw Refusal(reason: "not a verification request") }
            self = .request(fromDevice: try text("from_device"), methods: try texts("methods"), timestamp: nil)
        case "m.key.verification.request":
            guard let timestamp = content["timestamp"]?.int else { throw Refusal(reason: "no timestamp") }
            self = .request(fromDevice: try text("from_device"), methods: try texts("methods"), timestamp: Int64(timestamp))
        case "m.key.verification.ready":
            self = .ready(fromDevice: try text("from_device"), methods: try texts("methods"))
        case "m.key.verification.start":
            let method = try text("method")
            let sas = method == Self.sasMethod
            self = .start(SasStart(fromDevice: try text("from_device"), method: method,
                                   keyAgreementProtocols: sas ? try texts("key_agreement_protocols") : [],
                                   hashes: sas ? try texts("hashes") : [],
                                   messageAuthenticationCodes: sas ? try texts("message_authentication_codes") : [],
                                   shortAuthenticationStrings: sas ? try texts("short_authentication_string") : [],
                                   content: content))
        case "m.key.verification.accept":
            self = .accept(SasAccept(keyAgreementProtocol: try text("key_agreement_protocol"), hash: try text("hash"),
                                     messageAuthenticationCode: try text("message_authentication_code"),
                                     shortAuthenticationStrings: try texts("short_authentication_string"),
                                     commitment: try text("commitment")))
        case "m.key.verification.key":
            let key = try text("key")
            guard let bytes = UnpaddedBase64.decode(key), bytes.count == 32 else { throw Refusal(reason: "the key is not 32 bytes in base64") }
            self = .key(publicKey: bytes, text: key)
        case "m.key.verification.mac":
            guard let macs = content["mac"]?.object else { throw Refusal(reason: "no mac object") }
            var read: [String: String] = [:]
            for (keyID, value) in macs {
                guard let mac = value.string else { throw Refusal(reason: "a MAC is not text") }
                read[keyID] = mac
            }
            self = .mac(keys: try text("keys"), macs: read)
        case "m.key.verification.done":
            self = .done
        case "m.key.verification.cancel":
            self = .cancel(code: VerificationCancelCode(code: try text("code")), reason: content["reason"]?.string ?? "")
        default:
            throw Refusal(reason: "not a verification event")
        }
    }

    /// The device the message says it comes from (request, ready, start), as sent.
    public var fromDevice: String? {
        switch self {
        case .request(let device, _, _), .ready(let device, _): device
        case .start(let start): start.fromDevice
        default: nil
        }
    }

    /// The verification a message belongs to: its `transaction_id` (to-device), or the event its
    /// `m.reference` relation points to (in a room; a request's own event id is its flow).
    public static func flowID(of content: JSONValue) -> String? {
        if let id = content["transaction_id"]?.string { return id }
        guard content["m.relates_to"]?["rel_type"]?.string == "m.reference" else { return nil }
        return content["m.relates_to"]?["event_id"]?.string
    }

    /// Whether `type` names a verification event (in a room, `m.room.message` requests are read by msgtype).
    public static func isVerificationType(_ type: String) -> Bool { type.hasPrefix("m.key.verification.") }
}
